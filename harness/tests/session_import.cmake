# A candidate's export imported by the interviewer (session_import.sh): the record's files
# regraded once each on the default set, its times and hints kept as reported (label cli); what
# a forger may put in it refused, naming the event, or shown escaped (label adversarial).
# Included from CMakeLists.txt.

if(NOT OVERLAP_ONLY)
  foreach(case forged versions older-versions clock times-go-back after-export far-off oversized
               missing-text wrong-fingerprint exercise-escape text-escape)
    if(case MATCHES "^(forged|versions|older-versions|clock)$")
      set(name cli.session-import.${case})
      set(label cli)
    else()
      set(name adversarial.session-import.${case})
      set(label adversarial)
    endif()
    add_test(NAME ${name}
             COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/session_import.sh ${PROJECT_SOURCE_DIR}
                     $<TARGET_FILE:overlap-judge> $<TARGET_FILE:overlap-interview>
                     ${CMAKE_CURRENT_BINARY_DIR}/session-import-${case} ${case})
    set_tests_properties(${name} PROPERTIES LABELS ${label} TIMEOUT 600)
  endforeach()
endif()
