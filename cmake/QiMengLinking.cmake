# How QiMeng links upstream MLIR/LLVM.
#
# Default: every target links the shared libMLIR.so / libLLVM.so (fast builds).
# QIMENG_STATIC_MLIR=ON: link the MLIR/LLVM static archives into the tools, so
# qimeng-opt runs on a machine with no LLVM packages. Debian's static MLIR
# archives declare the *shared* libLLVM as their interface dependency, and the
# MLIRTest* archives drag in libMLIR.so; both are rewritten away here.

if(QIMENG_STATIC_MLIR)
  set(MLIR_LINK_MLIR_DYLIB OFF)
  set(LLVM_LINK_LLVM_DYLIB OFF)
  set(QIMENG_BUILD_PLUGIN OFF CACHE BOOL "" FORCE)
else()
  set(MLIR_LINK_MLIR_DYLIB ON)
  set(LLVM_LINK_LLVM_DYLIB ON)
endif()

# Upstream MLIR libraries a full tool needs, minus test and C-API libraries.
get_property(_qimeng_all_mlir GLOBAL PROPERTY MLIR_ALL_LIBS)
set(QIMENG_MLIR_LIBS)
foreach(_lib IN LISTS _qimeng_all_mlir)
  if(_lib MATCHES "^MLIR(Test|CAPI)" OR _lib MATCHES "Python"
     OR NOT TARGET ${_lib})
    continue()
  endif()
  # A static build takes archives only: the list also holds shared runtime
  # libraries (mlir_c_runner_utils, MLIRExecutionEngineShared, ...) and the
  # libMLIR.so target itself.
  if(QIMENG_STATIC_MLIR)
    get_target_property(_type ${_lib} TYPE)
    if(NOT _type STREQUAL "STATIC_LIBRARY")
      continue()
    endif()
  endif()
  list(APPEND QIMENG_MLIR_LIBS ${_lib})
endforeach()

if(QIMENG_STATIC_MLIR)
  # Static LLVM component archives, linked as one group at the end.
  file(GLOB QIMENG_LLVM_STATIC_ARCHIVES ${LLVM_LIBRARY_DIR}/libLLVM*.a)
  # Drop the shared LLVM/MLIR and the test libraries from the imported
  # interface dependencies of every static MLIR archive.
  foreach(_lib IN LISTS _qimeng_all_mlir)
    if(NOT TARGET ${_lib})
      continue()
    endif()
    get_target_property(_deps ${_lib} INTERFACE_LINK_LIBRARIES)
    if(NOT _deps)
      continue()
    endif()
    # Plain, or wrapped as a private dependency ($<LINK_ONLY:LLVM>).
    list(FILTER _deps EXCLUDE REGEX
         "^(\\$<LINK_ONLY:)?(LLVM|MLIR|MLIRTest.*|LLVM.*)>?$")
    set_target_properties(${_lib} PROPERTIES INTERFACE_LINK_LIBRARIES "${_deps}")
  endforeach()
endif()

# Links a tool against upstream MLIR (all of it), shared or static.
function(qimeng_link_mlir_tool target)
  mlir_target_link_libraries(${target} PRIVATE ${QIMENG_MLIR_LIBS})
  if(QIMENG_STATIC_MLIR)
    target_link_libraries(${target} PRIVATE
      -Wl,--start-group ${QIMENG_LLVM_STATIC_ARCHIVES} -Wl,--end-group
      z zstd pthread dl)
    # A release binary to ship: drop unused sections and symbols.
    target_link_options(${target} PRIVATE -Wl,--gc-sections -Wl,--strip-all)
  else()
    target_link_libraries(${target} PRIVATE LLVM)
  endif()
endfunction()

# Prefer a fast linker when one is installed.
if(NOT QIMENG_LINKER_CHECKED)
  find_program(QIMENG_LLD NAMES ld.lld-22 ld.lld)
  set(QIMENG_LINKER_CHECKED ON CACHE INTERNAL "")
endif()
if(QIMENG_LLD)
  add_link_options(-fuse-ld=lld)
elseif(EXISTS /usr/bin/ld.gold)
  add_link_options(-fuse-ld=gold)
endif()
