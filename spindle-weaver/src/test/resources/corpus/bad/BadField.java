package bad;

import dev.spindle.Future;

public class BadField {
    @Future int field; int m() { return field; }
}
