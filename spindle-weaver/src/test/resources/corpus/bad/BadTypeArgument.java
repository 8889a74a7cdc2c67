package bad;

import dev.spindle.Future;

public class BadTypeArgument {
    java.util.List<@Future String> m() { java.util.List<@Future String> l = Shapes2.list(); return l; }
}
