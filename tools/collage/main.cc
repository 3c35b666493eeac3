// The collage command-line tool, with this build's backends.
#include "command_line.h"

int main(int argc, char** argv) { return collage::cli::RunCommandLine(argc, argv); }
