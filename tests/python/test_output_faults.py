"""The module's save methods write like the command line (docs/cli.md,
"Output files"): through links, into devices, by atomic replace, and a write
error raises tessel.InputError naming the file and the OS reason (r2-08:
they returned None on a full device). Device nodes are made in tmp_path,
never the real /dev/full."""

import os
import stat

import pytest

import tessel


def savers(tmp_path):
    schedule = tessel.generate("1f1b", 4, 8)
    placement = tessel.Placement.builtin("mshape", 4)
    return {
        "Placement.save": placement.save,
        "Schedule.save": schedule.save,
        "Schedule.to_svg": schedule.to_svg,
        "Schedule.to_chrome_trace": schedule.to_chrome_trace,
        "Schedule.to_pytorch_csv": schedule.to_pytorch_csv,
    }


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_a_full_device_raises_naming_the_file(tmp_path):
    full = str(tmp_path / "full")
    os.mknod(full, stat.S_IFCHR | 0o666, os.makedev(1, 7))
    for name, save in savers(tmp_path).items():
        with pytest.raises(tessel.InputError) as error:
            save(full)
        assert "cannot write " + full + ": No space left on device" in str(error.value), name
    assert stat.S_ISCHR(os.stat(full).st_mode)


def test_a_link_is_written_through(tmp_path):
    link = tmp_path / "link.json"
    os.symlink("target.json", link)
    tessel.generate("1f1b", 4, 8).save(str(link))
    assert link.is_symlink()
    again = tessel.Schedule.load(str(tmp_path / "target.json"))
    assert tessel.verify(again).valid
