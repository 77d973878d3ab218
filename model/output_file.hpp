// Writing the files tessel produces (docs/cli.md, "Output files"). Every
// command's -o and other output options, the plan directory and the Python
// module's save() methods write through write_output_file, so that they all
// treat links, devices and write errors alike:
// - a symbolic link is followed to its target (made if missing): the link
//   stays a link and its target receives the text;
// - a regular file (or a new one) is replaced atomically: the text goes to a
//   temporary file beside it, is flushed to the disk, and is renamed over
//   it; a fault (full disk, interrupt, crash) leaves the old file whole;
// - a character device or FIFO (/dev/null, /dev/stdout, a pipe) cannot be
//   replaced and is written straight into, as a shell redirection would;
// - a directory, block device or socket is refused;
// - every failure is an InputError "cannot write PATH: <the OS reason>".
#pragma once

#include <string>

namespace tessel {

// Writes `text` to `path` by the rules above.
void write_output_file(const std::string& path, const std::string& text);

// True when `path` (through links) is a regular file or does not exist yet,
// so write_output_file replaces it atomically; false for a device or FIFO,
// which a command should write once, at the end, rather than after every
// improvement.
bool output_is_replaceable(const std::string& path);

// Checks, before a long computation, what the file system can tell now:
// that `path` is not a directory or a block device and that the folder that
// will hold it exists and is writable. Throws InputError naming `field`.
void check_output_path(const std::string& path, const std::string& field);

// The same for a folder of outputs (plan -o DIR): each part of the path that
// exists is a folder, and the deepest existing one is writable.
void check_output_directory(const std::string& directory, const std::string& field);

// Makes `directory` and its parents; InputError with the reason otherwise
// ("afile is not a directory").
void create_output_directory(const std::string& directory);

}  // namespace tessel
