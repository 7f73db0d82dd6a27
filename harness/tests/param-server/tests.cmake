# The param-server exercise's own tests beyond its programs' data: a variant of the reference
# (the functions are those of ../CMakeLists.txt).

# Only the two fastest workers: pass on the default (1872 ms against 1470).
overlap_variant(param-server two_fastest FROM "const int workers = cluster.num_workers();"
  TO "const int workers = 2;" CHECKS "-DARGS=--scenario default" -DMAKESPANS=default=1872)
