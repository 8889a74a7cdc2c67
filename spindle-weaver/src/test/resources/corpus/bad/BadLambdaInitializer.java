package bad;

import dev.spindle.Future;

public class BadLambdaInitializer {
    Runnable m() { @Future Runnable r = () -> {}; return r; }
}
