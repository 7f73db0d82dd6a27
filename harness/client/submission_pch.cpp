// The translation unit that builds submission_pch.hpp (CMake precompiles it).
