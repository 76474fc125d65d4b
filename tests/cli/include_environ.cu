// CLI test input: includes the judging process's environment.
#include </proc/self/environ>
