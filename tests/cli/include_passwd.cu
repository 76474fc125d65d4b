// CLI test input: reads a file of the judging machine through an include (its lines would
// come back in the compiler's error).
#include "/etc/passwd"
