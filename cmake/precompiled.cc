// The object the precompiled header is built with (CMakeLists.txt,
// "precompiled headers"); it compiles nothing of its own.
