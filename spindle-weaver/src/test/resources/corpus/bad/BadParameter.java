package bad;

import dev.spindle.Future;

public class BadParameter {
    int m(@Future int p) { return p; }
}
