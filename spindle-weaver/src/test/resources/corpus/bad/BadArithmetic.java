package bad;

import dev.spindle.Future;

public class BadArithmetic {
    int m(int a) { @Future int x = a + Shapes2.f(a); return x; }
}
