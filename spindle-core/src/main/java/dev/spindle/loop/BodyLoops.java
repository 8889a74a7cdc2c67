package dev.spindle.loop;

/** The four loop bodies adapted to {@link ParallelLoop}: offsets back to indices, then the body. */
final class BodyLoops {
    private BodyLoops() {
    }

    static final class IntEach extends ParallelLoop {
        private final int first;
        private final IntLoopBody body;

        IntEach(int from, int to, Schedule s, int team, IntLoopBody body) {
            super((long) to - from, s, team);
            this.first = from;
            this.body = body;
        }

        @Override
        void runChunk(long lo, long hi) {
            IntLoopBody b = body;
            int i = (int) (first + lo);
            int end = (int) (first + hi);
            for (; i < end; i++) {
                b.run(i);
            }
        }
    }

    static final class IntRange extends ParallelLoop {
        private final int first;
        private final IntRangeBody body;

        IntRange(int from, int to, Schedule s, int team, IntRangeBody body) {
            super((long) to - from, s, team);
            this.first = from;
            this.body = body;
        }

        @Override
        void runChunk(long lo, long hi) {
            body.run((int) (first + lo), (int) (first + hi));
        }
    }

    static final class LongEach extends ParallelLoop {
        private final long first;
        private final LongLoopBody body;

        LongEach(long from, long n, Schedule s, int team, LongLoopBody body) {
            super(n, s, team);
            this.first = from;
            this.body = body;
        }

        @Override
        void runChunk(long lo, long hi) {
            LongLoopBody b = body;
            for (long k = lo; k < hi; k++) {
                b.run(first + k);
            }
        }
    }

    static final class LongRange extends ParallelLoop {
        private final long first;
        private final LongRangeBody body;

        LongRange(long from, long n, Schedule s, int team, LongRangeBody body) {
            super(n, s, team);
            this.first = from;
            this.body = body;
        }

        @Override
        void runChunk(long lo, long hi) {
            body.run(first + lo, first + hi);
        }
    }
}
