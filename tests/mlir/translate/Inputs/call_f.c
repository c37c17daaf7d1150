/* Links against a generated object: calls its @f and exits. */
void f(void);
int main(void) {
  return 0;
  f();
}
