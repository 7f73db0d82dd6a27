// The interview's commands: its record and its outcome (the script's `grade` of the candidate's
// file, `session`, `hint` and `score`, and the card's table for the guide checker):
//
//   overlap-interview grade EXERCISE --sessions DIR --judge FILE [--started-at EPOCH]
//                 -- JUDGE_OPTIONS
//                 the judge run as a user runs it (its options after --), the grade recorded; a
//                 session it begins starts at EPOCH (the command's start, its build included)
//   overlap-interview session EXERCISE --sessions DIR [--hint N | --shown N | --reset
//                 | --html FILE | --export FILE | --import FILE --judge FILE | --last FILE]
//   overlap-interview score EXERCISE --sessions DIR --rule FILE --predictions A,B
//                 --communication N --follow-ups A,B[,C] [--gap-explained] [--defended]
//                 [--unseen REPORT.json]
//   overlap-interview card EXERCISE --rule FILE        the card's score table, in Markdown
//
// DIR is the exercise's sessions folder (build/sessions/<exercise>). Exit 0, or 2 for a usage
// error, or 4 when the record cannot be read or written; grade exits as the judge did.
#pragma once

namespace overlap::interview {

int grade_main(int argc, char** argv);
int session_main(int argc, char** argv);
int score_main(int argc, char** argv);
int card_main(int argc, char** argv);

}  // namespace overlap::interview
