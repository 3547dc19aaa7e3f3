# Run by CPack (CPACK_PRE_BUILD_SCRIPTS) in the staging tree of the Debian package, after the
# install and before dpkg-deb: what Debian policy wants of a package and `cmake --install` does not
# do: manual pages compressed (gzip -9n, policy 12.1), the copyright file and changelog.Debian.gz
# in usr/share/doc/archscope (policy 12.5, 12.7). The plain install keeps its pages uncompressed.
file(GLOB_RECURSE _stage_pages "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/*/share/man/man1/*.1")
foreach(_page IN LISTS _stage_pages)
  execute_process(COMMAND gzip -9nf "${_page}" RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "gzip ${_page} failed")
  endif()
endforeach()
file(GLOB _stage_docs LIST_DIRECTORIES true "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/*/share/doc/archscope")
if(NOT _stage_docs)
  set(_stage_docs "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/usr/share/doc/archscope")
endif()
list(GET _stage_docs 0 _doc)
file(MAKE_DIRECTORY "${_doc}")
file(COPY "${CPACK_ARCHSCOPE_DEB_DIR}/copyright" DESTINATION "${_doc}"
     FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
configure_file("${CPACK_ARCHSCOPE_DEB_DIR}/changelog.in" "${_doc}/changelog.Debian" @ONLY)
execute_process(COMMAND gzip -9nf "${_doc}/changelog.Debian")
