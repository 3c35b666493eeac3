// The collage command-line tool: dispatches argv to a command. Exit status: 0 on success, 2 for
// bad usage, 1 for any other error, reported as one line "collage: error: <message>" on stderr.
#pragma once

namespace collage::cli {

int RunCommandLine(int argc, char** argv);

}  // namespace collage::cli
