package bad;

import dev.spindle.Future;

public class BadNew {
    Object m() { @Future Object x = new Object(); return x; }
}
