// Catch2's main; every other file in tests/ adds test cases.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
