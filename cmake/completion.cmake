# The bash completion, generated at build time by cmake/gen-completion.py from the binary's command
# and option tables (`archscope CMD --archscope-completion`), so new commands and options complete
# without a change here; installed where bash-completion loads it on demand. Included by
# cmake/install.cmake.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  set(ARCHSCOPE_COMPLETION ${CMAKE_BINARY_DIR}/completion/archscope)
  file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/completion)
  add_custom_command(OUTPUT ${ARCHSCOPE_COMPLETION}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/cmake/gen-completion.py $<TARGET_FILE:archscope>
            ${CMAKE_SOURCE_DIR}/share/groups ${ARCHSCOPE_COMPLETION}
    DEPENDS archscope ${CMAKE_SOURCE_DIR}/cmake/gen-completion.py
    COMMENT "bash completion from the option tables")
  add_custom_target(archscope-completion ALL DEPENDS ${ARCHSCOPE_COMPLETION})
  install(FILES ${ARCHSCOPE_COMPLETION} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
else()
  message(WARNING "python3 not found: no bash completion (scripts/setup.sh installs it)")
endif()
