# The semihosted C programs of tests/rv32/c, built with Debian's RISC-V gcc and picolibc
# (scripts/deps.sh installs both) into build/tests/rv32/c/NAME.elf; tests/cli/rv32_qemu.sh
# runs each on isekit's rv32 model and on qemu-system-riscv32 and compares with NAME.out.
# Without the toolchain nothing is built and that test reports itself skipped.
find_program(ISEKIT_RV_GCC riscv64-unknown-elf-gcc)
if(ISEKIT_RV_GCC)
  execute_process(COMMAND ${ISEKIT_RV_GCC} -print-file-name=picolibc.specs
                  OUTPUT_VARIABLE _specs OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT IS_ABSOLUTE "${_specs}")
    message(STATUS "tests/rv32/c: picolibc not installed, the C programs are not built")
    set(ISEKIT_RV_GCC "")
  endif()
endif()
set_tests_properties(cli/rv32_qemu PROPERTIES SKIP_RETURN_CODE 77)
if(ISEKIT_RV_GCC)
  # The command line of docs/rv32.md "Building C programs": -march=rv32im_zicsr alone would
  # make Debian's gcc 12 pick its default rv64 multilib, so rv32im with the 2.2 ISA spec
  # (Zicsr part of I) selects picolibc's rv32im/ilp32 libraries. 256 KiB of code at the
  # rv32 model's RAM base, 768 KiB of data, heap and stack after it.
  set(_flags -march=rv32im -misa-spec=2.2 -mabi=ilp32 -O2 -g -Wall -Wextra -Werror
      --specs=picolibc.specs --oslib=semihost --crt0=semihost
      -Wl,--defsym=__flash=0x80000000,--defsym=__flash_size=0x40000
      -Wl,--defsym=__ram=0x80040000,--defsym=__ram_size=0xc0000)
  set(_out ${CMAKE_BINARY_DIR}/tests/rv32/c)
  file(GLOB _progs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/rv32/c/*.c)
  set(_elfs)
  foreach(_src ${_progs})
    get_filename_component(_name ${_src} NAME_WE)
    add_custom_command(OUTPUT ${_out}/${_name}.elf
      COMMAND ${CMAKE_COMMAND} -E make_directory ${_out}
      COMMAND ${ISEKIT_RV_GCC} ${_flags} -o ${_out}/${_name}.elf ${_src}
      DEPENDS ${_src} COMMENT "rv32 C program ${_name}.elf" VERBATIM)
    list(APPEND _elfs ${_out}/${_name}.elf)
  endforeach()
  add_custom_target(rv32_c_programs ALL DEPENDS ${_elfs})
endif()
