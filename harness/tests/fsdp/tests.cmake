# The fsdp exercise's own tests beyond its programs' data: a variant of the reference (the
# functions are those of ../CMakeLists.txt).

# One layer gathered at a time: no prefetch of the next gather, pass in every scenario.
overlap_variant(fsdp one_buffer
  FROM "param_buffers(executor, rank.param_buffers())" TO "param_buffers(executor, 1)"
  CHECKS -DMAKESPANS=default=620,comm-bound=1090,compute-bound=980,straggler-rank=800,eight-ranks=661.674)
