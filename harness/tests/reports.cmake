# Tests of the reports the judge writes for people: the HTML page (in a real browser) and the
# command line's output options. Included from tests/CMakeLists.txt.
