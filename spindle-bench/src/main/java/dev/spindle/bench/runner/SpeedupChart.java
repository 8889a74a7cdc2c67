package dev.spindle.bench.runner;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Draws speedup-&lt;suite&gt;.png: Ts/TP per benchmark, one bar per variant and worker count. */
final class SpeedupChart {
    private SpeedupChart() {
    }

    static void write(Report r, String suite, Path file) throws IOException {
        System.setProperty("java.awt.headless", "true");
        List<Measurement> rows = r.rows().stream().filter(m -> m.suite().equals(suite) && !m.variant().equals("seq")).toList();
        if (rows.isEmpty()) {
            return;
        }
        Set<String> benches = new LinkedHashSet<>();
        Set<String> series = new LinkedHashSet<>();
        for (Measurement m : rows) {
            benches.add(m.benchmark());
            series.add(m.variant() + " P=" + m.workers());
        }
        CategoryChart chart = new CategoryChartBuilder().width(1000).height(560)
                .title("Spindle suite '" + suite + "': speedup over sequential (Ts/TP), " + r.jdk())
                .xAxisTitle("benchmark").yAxisTitle("Ts / TP").build();
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideE);
        chart.getStyler().setAvailableSpaceFill(0.85);
        List<String> xs = new ArrayList<>(benches);
        for (String s : series) {
            List<Double> ys = new ArrayList<>();
            for (String b : xs) {
                double y = 0.0;
                for (Measurement m : rows) {
                    if (m.benchmark().equals(b) && (m.variant() + " P=" + m.workers()).equals(s)) {
                        y = r.tsOverTp(m).orElse(0.0);
                    }
                }
                ys.add(y);
            }
            chart.addSeries(s, xs, ys);
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
