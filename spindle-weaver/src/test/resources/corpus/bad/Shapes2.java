package bad;

public class Shapes2 {
    static int f(int x) { return x; }
    static java.util.List<String> list() { return java.util.List.of(); }
}
