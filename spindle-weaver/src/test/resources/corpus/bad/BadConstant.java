package bad;

import dev.spindle.Future;

public class BadConstant {
    int m() { @Future int x = 5; return x; }
}
