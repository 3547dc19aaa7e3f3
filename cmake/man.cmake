# Manual pages archscope(1) and archscope-COMMAND(1), generated at build time by cmake/gen-man.sh
# from docs/archscope*.md and the binary's own --help (so they cannot drift from it; t0273 checks),
# with pandoc (Debian package pandoc, installed by scripts/setup.sh). Without pandoc the build
# makes no manual pages and says so. Included by cmake/install.cmake.
find_program(PANDOC pandoc)
if(PANDOC)
  set(ARCHSCOPE_MAN_DIR ${CMAKE_BINARY_DIR}/man)
  file(GLOB ARCHSCOPE_MAN_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/docs/archscope*.md)
  add_custom_command(OUTPUT ${ARCHSCOPE_MAN_DIR}/pages.txt
    COMMAND bash ${CMAKE_SOURCE_DIR}/cmake/gen-man.sh ${PANDOC} $<TARGET_FILE:archscope> ${CMAKE_SOURCE_DIR}
            ${ARCHSCOPE_MAN_DIR} ${PROJECT_VERSION}
    DEPENDS archscope ${ARCHSCOPE_MAN_SOURCES} ${CMAKE_SOURCE_DIR}/cmake/gen-man.sh
            ${CMAKE_SOURCE_DIR}/cmake/man-filter.lua
    COMMENT "manual pages from docs/ and --help (pandoc)")
  add_custom_target(archscope-man ALL DEPENDS ${ARCHSCOPE_MAN_DIR}/pages.txt)
  install(DIRECTORY ${ARCHSCOPE_MAN_DIR}/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
          FILES_MATCHING PATTERN "*.1" PATTERN md EXCLUDE)
else()
  message(WARNING "pandoc not found: no manual pages (scripts/setup.sh installs it)")
endif()
