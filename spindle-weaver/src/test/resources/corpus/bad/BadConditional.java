package bad;

import dev.spindle.Future;

public class BadConditional {
    int m(boolean c) { @Future int x = c ? Shapes2.f(1) : Shapes2.f(2); return x; }
}
