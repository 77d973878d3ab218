// PLACEHOLDER: the classic schedules land with the formats issue; delete this file then.
