#include "brief_html.hpp"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include <memory>
#include <stdexcept>

namespace overlap::interview {

std::string markdown_to_html(const std::string& markdown) {
  cmark_gfm_core_extensions_ensure_registered();
  // CMARK_OPT_DEFAULT leaves out CMARK_OPT_UNSAFE: raw HTML and dangerous links are dropped.
  const int options = CMARK_OPT_DEFAULT;
  std::unique_ptr<cmark_parser, decltype(&cmark_parser_free)> parser(cmark_parser_new(options),
                                                                     &cmark_parser_free);
  for (const char* name : {"table", "strikethrough", "autolink"}) {
    if (cmark_syntax_extension* ext = cmark_find_syntax_extension(name)) {
      cmark_parser_attach_syntax_extension(parser.get(), ext);
    }
  }
  cmark_parser_feed(parser.get(), markdown.data(), markdown.size());
  std::unique_ptr<cmark_node, decltype(&cmark_node_free)> document(
      cmark_parser_finish(parser.get()), &cmark_node_free);
  if (!document) throw std::runtime_error("the brief could not be parsed");
  char* html =
      cmark_render_html(document.get(), options, cmark_parser_get_syntax_extensions(parser.get()));
  std::string out(html);
  // The renderer's memory comes from cmark's allocator.
  cmark_get_default_mem_allocator()->free(html);
  return out;
}

}  // namespace overlap::interview
