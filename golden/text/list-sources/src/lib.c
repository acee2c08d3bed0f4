/* lib.c: shorter than the profile says (leaf is at line 7). */
int leaf(void) { return 1; }
