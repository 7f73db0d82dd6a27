# The pipeline exercise's own tests beyond its programs' data: the starter's chart, a variant of
# the reference (the functions are those of ../CMakeLists.txt).

overlap_grade_test(starter.pipeline.chart LABEL starter GRADER grade-pipeline EXIT 1
  CHECKS "-DARGS=--scenario default" "-DOUTPUT_MATCHES=stage 0 \\|F\\.\\.\\.")

# 1F1B one warm-up forward short: pass on four stages (540 ms a step), slow on two.
overlap_variant(pipeline warmup_one_short
  FROM "std::min({pipe.num_stages() - s - 1, pipe.stash_budget(s) - 1, m})"
  TO "std::max(0, std::min({pipe.num_stages() - s - 2, pipe.stash_budget(s) - 1, m}))"
  CHECKS "-DARGS=--scenario default" -DMAKESPANS=default=1620)
