include(${CMAKE_CURRENT_SOURCE_DIR}/rv32/c/programs.cmake)
