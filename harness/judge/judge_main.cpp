// overlap-judge (every world) and overlap-judge-<exercise> (one): grade a submission (grade.hpp).
// Built from the kit's sources alone; they hold nothing of the interview.
#include "grade.hpp"

int main(int argc, char** argv) { return overlap::judge::main(argc, argv); }
