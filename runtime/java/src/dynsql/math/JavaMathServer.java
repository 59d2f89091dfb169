package dynsql.math;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;

/**
 * java.lang.Math's functions for dynsql's Python evaluators (runtime/java_math.py: MATCH_RECOGNIZE's MEASURES and
 * DEFINE, the conditions of interval and outer joins evaluated while rows pair). Flink's generated code calls
 * java.lang.Math (EXP: Math.exp, LN: Math.log, LOG10: Math.log10, POWER: Math.pow), whose HotSpot intrinsics give
 * other last digits than Python's math (the C library's) and StrictMath (fdlibm) for some inputs: only a JVM
 * computes them as Flink does.
 *
 * <p>Requests on stdin, answers on stdout, until stdin ends: a request is one byte naming the function ('e' exp,
 * 'l' log, 't' log10, 'p' pow) and two big-endian doubles (the second is pow's exponent, else ignored); the
 * answer is the result's 8 bytes. Answers are flushed when no request waits, so a batch of requests costs one
 * round trip.
 */
public final class JavaMathServer {
    private JavaMathServer() {
    }

    public static void main(String[] args) throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(System.in));
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(System.out));
        while (true) {
            int function;
            try {
                function = in.readUnsignedByte();
            } catch (EOFException end) {
                return;
            }
            double x = in.readDouble();
            double y = in.readDouble();
            out.writeDouble(apply(function, x, y));
            if (in.available() == 0) {
                out.flush();
            }
        }
    }

    static double apply(int function, double x, double y) {
        switch (function) {
            case 'e':
                return Math.exp(x);
            case 'l':
                return Math.log(x);
            case 't':
                return Math.log10(x);
            case 'p':
                return Math.pow(x, y);
            default:
                throw new IllegalArgumentException("unknown function " + function);
        }
    }
}
