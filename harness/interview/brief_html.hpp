// An exercise's brief (exercises/<exercise>/README.md) as HTML for the candidate's page: GitHub's
// Markdown with its table extension (the briefs are full of tables), by cmark-gfm. Raw HTML in
// the Markdown is not passed through.
#pragma once

#include <string>

namespace overlap::interview {

std::string markdown_to_html(const std::string& markdown);

}  // namespace overlap::interview
