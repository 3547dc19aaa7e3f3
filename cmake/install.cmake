# Install rules, the Debian package (CPack DEB), the manual pages and the bash completion; included
# once from CMakeLists.txt. `cmake --install build [--prefix P]` installs (GNUInstallDirs):
#   bin/                              every target in ARCHSCOPE_INSTALL_PROGRAMS (archscope; a part of
#                                     the build that makes another program appends its target, e.g.
#                                     list(APPEND ARCHSCOPE_INSTALL_PROGRAMS archscope-cluster), before
#                                     or after this file is included: the list is read at the end)
#   lib[/<multiarch>]/archscope/      the preload library of `stack` (libarchscope-preload.so) and the
#                                     marker library of `stat --regions` (libarchscope-marker.so)
#   include/archscope-marker.h        the region markers for programs (ARCHSCOPE_REGION_BEGIN/END)
#   share/archscope/                  groups/ (metric groups), kernels/, machines/
#   share/man/man1/                   archscope.1, archscope-COMMAND.1 (cmake/man.cmake)
#   share/bash-completion/completions/archscope (cmake/completion.cmake)
# The program finds the library and the data relative to itself (src/common/paths.c), through the
# relative paths set below: an installed prefix works wherever it is copied, and nothing of the
# build tree is compiled in. `cmake --build build --target package` writes
# build/archscope_VERSION_ARCH.deb.
include(GNUInstallDirs)

# the private library under the multiarch directory where the platform has one (Debian: a private
# library in lib/<triplet>/archscope needs no ldconfig, which lib/archscope would make CPack call)
set(ARCHSCOPE_PKGLIBDIR ${CMAKE_INSTALL_LIBDIR}/archscope)
if(CMAKE_LIBRARY_ARCHITECTURE AND NOT CMAKE_INSTALL_LIBDIR MATCHES "${CMAKE_LIBRARY_ARCHITECTURE}$")
  set(ARCHSCOPE_PKGLIBDIR ${CMAKE_INSTALL_LIBDIR}/${CMAKE_LIBRARY_ARCHITECTURE}/archscope)
endif()
set(ARCHSCOPE_PKGDATADIR ${CMAKE_INSTALL_DATADIR}/archscope)
file(RELATIVE_PATH ARCHSCOPE_REL_PKGLIBDIR ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_PREFIX}/${ARCHSCOPE_PKGLIBDIR})
file(RELATIVE_PATH ARCHSCOPE_REL_PKGDATADIR ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_DATADIR}/archscope)
set_property(SOURCE ${CMAKE_SOURCE_DIR}/src/common/paths.c APPEND PROPERTY COMPILE_DEFINITIONS
  ARCHSCOPE_REL_PKGLIBDIR="${ARCHSCOPE_REL_PKGLIBDIR}" ARCHSCOPE_REL_PKGDATADIR="${ARCHSCOPE_REL_PKGDATADIR}")

# Programs: installed by the list at the end of the top directory, so targets added later count.
list(APPEND ARCHSCOPE_INSTALL_PROGRAMS archscope)
function(archscope_install_programs)
  list(REMOVE_DUPLICATES ARCHSCOPE_INSTALL_PROGRAMS)
  foreach(t IN LISTS ARCHSCOPE_INSTALL_PROGRAMS)
    if(TARGET ${t})
      install(TARGETS ${t} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
    endif()
  endforeach()
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL archscope_install_programs)

if(TARGET archscope-preload)
  install(TARGETS archscope-preload LIBRARY DESTINATION ${ARCHSCOPE_PKGLIBDIR})
endif()
install(TARGETS archscope-marker LIBRARY DESTINATION ${ARCHSCOPE_PKGLIBDIR})
install(FILES ${CMAKE_SOURCE_DIR}/include/archscope-marker.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/share/groups DESTINATION ${ARCHSCOPE_PKGDATADIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/kernels DESTINATION ${ARCHSCOPE_PKGDATADIR} FILES_MATCHING PATTERN "*.c")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/machines DESTINATION ${ARCHSCOPE_PKGDATADIR} FILES_MATCHING PATTERN "*.yaml")
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

include(${CMAKE_CURRENT_LIST_DIR}/man.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/completion.cmake)

# --- the Debian package --------------------------------------------------------------------
# Shared libraries the program links are found by dpkg-shlibdeps; what it opens with dlopen or
# runs is declared here: libclang (model's kernel reader) from the package that holds the file the
# build compiled in; llvm-mca, a C compiler, OpenBLAS, gnuplot and perf as recommendations.
set(ARCHSCOPE_DEB_DEPENDS "")
if(LIBCLANG_RUNTIME)
  execute_process(COMMAND dpkg-query -S ${LIBCLANG_RUNTIME} OUTPUT_VARIABLE _owner ERROR_QUIET
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  string(REGEX REPLACE "^([^:,]+).*" "\\1" _owner "${_owner}")
  if(_owner)
    set(ARCHSCOPE_DEB_DEPENDS "${_owner}")
  endif()
endif()
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME archscope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# the project's address, as its history records it (no list of its own yet)
set(CPACK_PACKAGE_CONTACT "archscope developers <maintainers@users.noreply.a-seed-c05b6a4b.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "measures what a machine really is and how fast code should run on it")
set(CPACK_PACKAGE_DESCRIPTION "archscope probes the effective hardware (clock, caches, TLB,
instructions, registers, core-to-core) by timing, runs streaming benchmarks,
models loop kernels (Roofline, ECM, layer conditions, cache simulation),
counts and compares program events, builds speedup stacks, measures NUMA
links, and writes one self-contained HTML report of a machine.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${ARCHSCOPE_DEB_DEPENDS}")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "llvm-19, gcc | c-compiler, libopenblas0, gnuplot-nox, hwloc, numactl")
if(TARGET archscope-cluster) # started by mpirun: Open MPI's launcher beside the libraries it links
  string(APPEND CPACK_DEBIAN_PACKAGE_RECOMMENDS ", openmpi-bin")
endif()
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "linux-perf, chromium, bash-completion, man-db")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)            # Debian policy 10.1: binaries stripped
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)  # 0.1.0-1: a packaging revision, so changelog.Debian.gz is its name
# compressed manual pages, copyright and changelog.Debian.gz (cmake/deb-prebuild.cmake)
set(CPACK_ARCHSCOPE_DEB_DIR ${CMAKE_CURRENT_LIST_DIR}/debian)
set(CPACK_PRE_BUILD_SCRIPTS ${CMAKE_CURRENT_LIST_DIR}/deb-prebuild.cmake)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
