// The judge's commands for an interview's record and its outcome (the script's `session` and
// `score`, and the card's table for the guide checker):
//
//   overlap-judge session EXERCISE --sessions DIR [--hint N | --shown N | --reset | --html FILE
//                 | --export FILE | --import FILE]
//   overlap-judge score EXERCISE --sessions DIR --rule FILE --predictions A,B --communication N
//                 --follow-ups A,B[,C] [--gap-explained] [--defended] [--unseen REPORT.json]
//   overlap-judge card EXERCISE --rule FILE        the card's score table, in Markdown
//
// DIR is the exercise's sessions folder (build/sessions/<exercise>). Exit 0, or 2 for a usage
// error, or 4 when the record cannot be read or written.
#pragma once

namespace overlap::session {

int session_main(int argc, char** argv);
int score_main(int argc, char** argv);
int card_main(int argc, char** argv);

}  // namespace overlap::session
