package dev.mgpu.ir;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Locale;

/**
 * The bit-level view of float constants. A {@link Attribute.FloatAttr} holds a {@code double} whatever its
 * type, rounded to the type's precision, so that arithmetic on the model is plain Java; the text form and
 * LLVM need the value's bits in the type's own width (a NaN typed {@code f32} is {@code 0x7FC00000}, not a
 * 64-bit pattern).
 */
public final class FloatBits {
    private FloatBits() {
    }

    /**
     * {@code v} rounded to the nearest value of {@code t} (ties to even).
     *
     * @param v the value
     * @param t the float type
     * @return the nearest value that {@code t} can hold
     */
    public static double round(double v, Type.FloatType t) {
        return fromBits(bits(v, t), t);
    }

    /**
     * The bits of {@code v} in the format of {@code t}, in the low {@code t.width()} bits.
     *
     * @param v the value
     * @param t the float type
     * @return the bits, zero-extended to 64
     */
    public static long bits(double v, Type.FloatType t) {
        if (Double.isNaN(v) && t.kind() != Type.FloatType.Kind.F64) {
            return narrowNaN(Double.doubleToRawLongBits(v), t);
        }
        switch (t.kind()) {
            case F64:
                return Double.doubleToRawLongBits(v);
            case F32:
                return Float.floatToRawIntBits((float) v) & 0xFFFF_FFFFL;
            case BF16:
                return bf16Bits((float) v);
            default:
                return halfBits((float) v);
        }
    }

    /**
     * The value whose bits in the format of {@code t} are the low {@code t.width()} bits of {@code bits}.
     *
     * @param bits the bits, in the low {@code t.width()} bits
     * @param t the float type
     * @return the value they encode
     */
    public static double fromBits(long bits, Type.FloatType t) {
        if (t.kind() != Type.FloatType.Kind.F64) {
            int p = significandBits(t);
            long exponent = (1L << (t.width() - p)) - 1;
            long fraction = bits & ((1L << (p - 1)) - 1);
            if ((bits >>> (p - 1) & exponent) == exponent && fraction != 0) {
                return wideNaN(bits, t);
            }
        }
        switch (t.kind()) {
            case F64:
                return Double.longBitsToDouble(bits);
            case F32:
                return Float.intBitsToFloat((int) bits);
            case BF16:
                return Float.intBitsToFloat((int) (bits & 0xFFFF) << 16);
            default:
                return halfToFloat((int) (bits & 0xFFFF));
        }
    }

    /*
     * A NaN of a narrower type is held as the double NaN with the same sign and its fraction at the top of
     * the double's, so that its payload, and whether it is quiet or signalling, survive: a conversion through
     * float would set the quiet bit, and upstream keeps a signalling NaN's bits (0x7FA00000 : f32 prints back
     * as 0x7FA00000).
     */
    private static double wideNaN(long bits, Type.FloatType t) {
        int p = significandBits(t);
        long sign = bits >>> (t.width() - 1) & 1;
        long fraction = bits & ((1L << (p - 1)) - 1);
        return Double.longBitsToDouble(sign << 63 | 0x7FFL << 52 | fraction << (53 - p));
    }

    private static long narrowNaN(long raw, Type.FloatType t) {
        int p = significandBits(t);
        long fraction = (raw & ((1L << 52) - 1)) >>> (53 - p);
        if (fraction == 0) {
            // A payload only in bits the type lacks: the type's quiet NaN.
            fraction = 1L << (p - 2);
        }
        long exponent = (1L << (t.width() - p)) - 1;
        return (raw >>> 63) << (t.width() - 1) | exponent << (p - 1) | fraction;
    }

    /**
     * The MLIR text of a float constant of type {@code t}, as upstream prints it: scientific notation with
     * six digits after the point when that reads back to the same value, else LLVM's default decimal form
     * of the value when it has a point, else (NaN, infinities) the bits in hexadecimal.
     *
     * <p>The decimal forms follow LLVM's float-to-text conversion digit for digit, not the shortest or the
     * correctly rounded decimal: it cuts the exact value to a few more digits than it shows by dropping
     * whole powers of ten, then rounds on the first digit it drops. So an f16 0.1 (0.0999755859375) prints
     * as {@code 9.997550e-02}, and an f64 7e100, whose six-digit form is {@code 6.999990e+100} and reads
     * back to another value, as {@code 6.9999999999999995E+100}.
     *
     * @param v the value
     * @param t the float type
     * @return the constant's text
     */
    public static String format(double v, Type.FloatType t) {
        long bits = bits(v, t);
        if (Double.isFinite(v)) {
            String s = decimal(bits, t, 6, 0, false);
            if (parse(s, t) == bits) {
                return s;
            }
            String d = decimal(bits, t, 0, 3, true);
            if (d.indexOf('.') >= 0) {
                return d;
            }
        }
        int digits = t.width() / 4;
        return "0x" + String.format(Locale.ROOT, "%0" + digits + "X", bits);
    }

    /** The bits of the significand of {@code t}, its hidden bit included. */
    private static int significandBits(Type.FloatType t) {
        switch (t.kind()) {
            case F64:
                return 53;
            case F32:
                return 24;
            case BF16:
                return 8;
            default:
                return 11;
        }
    }

    /**
     * The decimal text of the finite value whose bits in {@code t} are {@code bits}, the way LLVM writes
     * it: {@code precision} significant digits at most (0: enough for the type, 2 + significand bits times
     * log10(2)); scientific notation when {@code maxPadding} is 0 or the plain form would need more than
     * that many padding zeros; with {@code truncateZero} false, zeros fill the digits up to
     * {@code precision} and the exponent has at least two digits ({@code 1.500000e+00}), else not
     * ({@code 1.5E+0}).
     */
    private static String decimal(long bits, Type.FloatType t, int precision, int maxPadding, boolean truncateZero) {
        int p = significandBits(t);
        int expBits = t.width() - p;
        int bias = (1 << (expBits - 1)) - 1;
        boolean negative = (bits >>> (t.width() - 1) & 1) != 0;
        int biased = (int) (bits >>> (p - 1)) & ((1 << expBits) - 1);
        long significand = bits & ((1L << (p - 1)) - 1);
        int exp2;
        if (biased == 0) {
            exp2 = 1 - bias - (p - 1);
        } else {
            significand |= 1L << (p - 1);
            exp2 = biased - bias - (p - 1);
        }
        String sign = negative ? "-" : "";
        if (significand == 0) {
            if (maxPadding != 0) {
                return sign + "0";
            }
            return sign + (truncateZero ? "0.0E+0" : "0.0" + "0".repeat(Math.max(0, precision - 1)) + "e+00");
        }
        if (precision == 0) {
            precision = 2 + p * 59 / 196;
        }
        int zeros = Long.numberOfTrailingZeros(significand);
        significand >>>= zeros;
        exp2 += zeros;
        // The value as an integer times a power of ten: N * 2^e is N * 5^-e * 10^e.
        BigInteger digits;
        int exp10;
        if (exp2 >= 0) {
            digits = BigInteger.valueOf(significand).shiftLeft(exp2);
            exp10 = 0;
        } else {
            digits = BigInteger.valueOf(significand).multiply(BigInteger.valueOf(5).pow(-exp2));
            exp10 = exp2;
        }
        // Whole powers of ten beyond about the bits that the digits need are dropped, without rounding.
        int have = digits.bitLength();
        int need = (precision * 196 + 58) / 59;
        if (have > need) {
            int tens = (have - need) * 59 / 196;
            if (tens > 0) {
                digits = digits.divide(BigInteger.TEN.pow(tens));
                exp10 += tens;
            }
        }
        String ds = digits.toString();
        int end = ds.length();
        while (ds.charAt(end - 1) == '0') {
            end--;
            exp10++;
        }
        ds = ds.substring(0, end);
        if (ds.length() > precision) {
            // Rounded on the first digit dropped alone, half up; zeros that the rounding leaves at the end go.
            boolean up = ds.charAt(precision) >= '5';
            exp10 += ds.length() - precision;
            ds = ds.substring(0, precision);
            if (up) {
                ds = new BigInteger(ds).add(BigInteger.ONE).toString();
            }
            end = ds.length();
            while (end > 1 && ds.charAt(end - 1) == '0') {
                end--;
                exp10++;
            }
            ds = ds.substring(0, end);
        }
        int n = ds.length();
        boolean scientific;
        if (maxPadding == 0) {
            scientific = true;
        } else if (exp10 >= 0) {
            scientific = exp10 > maxPadding || n + exp10 > precision;
        } else {
            int leading = exp10 + n - 1;
            scientific = leading < 0 && -leading > maxPadding;
        }
        StringBuilder b = new StringBuilder(sign);
        if (scientific) {
            int e = exp10 + n - 1;
            b.append(ds.charAt(0)).append('.');
            if (n == 1 && truncateZero) {
                b.append('0');
            } else {
                b.append(ds, 1, n);
            }
            if (!truncateZero && precision > n - 1) {
                b.append("0".repeat(precision - n + 1));
            }
            b.append(truncateZero ? 'E' : 'e').append(e >= 0 ? '+' : '-');
            String magnitude = Integer.toString(Math.abs(e));
            if (!truncateZero && magnitude.length() < 2) {
                b.append('0');
            }
            return b.append(magnitude).toString();
        }
        if (exp10 >= 0) {
            return b.append(ds).append("0".repeat(exp10)).toString();
        }
        int whole = exp10 + n;
        if (whole > 0) {
            return b.append(ds, 0, whole).append('.').append(ds, whole, n).toString();
        }
        return b.append("0.").append("0".repeat(-whole)).append(ds).toString();
    }

    /**
     * The bits in {@code t} of the decimal {@code text} rounded to the nearest value of {@code t}, ties to
     * even, as a literal reads. Rounding through {@code double} first can land on the wrong side of a point
     * halfway between two values of a 16-bit type, so the result is checked against its neighbours exactly.
     */
    static long parse(String text, Type.FloatType t) {
        switch (t.kind()) {
            case F64:
                return Double.doubleToRawLongBits(Double.parseDouble(text));
            case F32:
                return Float.floatToRawIntBits(Float.parseFloat(text)) & 0xFFFF_FFFFL;
            default:
                break;
        }
        long bits = bits(Double.parseDouble(text), t);
        long signBit = 1L << (t.width() - 1);
        long sign = bits & signBit;
        long magnitude = bits & ~signBit;
        long infinity = bits(Double.POSITIVE_INFINITY, t);
        if (magnitude >= infinity) {
            return bits;
        }
        BigDecimal exact = new BigDecimal(text).abs();
        if (magnitude > 0) {
            BigDecimal below = half(magnitude - 1, magnitude, t);
            int c = exact.compareTo(below);
            if (c < 0 || c == 0 && (magnitude & 1) != 0) {
                return sign | (magnitude - 1);
            }
        }
        if (magnitude + 1 < infinity) {
            BigDecimal above = half(magnitude, magnitude + 1, t);
            int c = exact.compareTo(above);
            if (c > 0 || c == 0 && (magnitude & 1) != 0) {
                return sign | (magnitude + 1);
            }
        }
        return bits;
    }

    /** The point halfway between the two values of {@code t} whose bits are {@code a} and {@code b}. */
    private static BigDecimal half(long a, long b, Type.FloatType t) {
        return new BigDecimal(fromBits(a, t)).add(new BigDecimal(fromBits(b, t))).divide(BigDecimal.valueOf(2));
    }

    private static long bf16Bits(float f) {
        int b = Float.floatToRawIntBits(f);
        if (Float.isNaN(f)) {
            return ((b >>> 16) | 0x40) & 0xFFFF;
        }
        int rounded = b + 0x7FFF + ((b >>> 16) & 1);
        return (rounded >>> 16) & 0xFFFF;
    }

    private static long halfBits(float f) {
        int b = Float.floatToRawIntBits(f);
        int sign = (b >>> 16) & 0x8000;
        int exp = (b >>> 23) & 0xFF;
        int mant = b & 0x7F_FFFF;
        if (exp == 0xFF) {
            return sign | 0x7C00 | (mant != 0 ? 0x200 | (mant >>> 13) : 0);
        }
        int e = exp - 127 + 15;
        if (e >= 0x1F) {
            return sign | 0x7C00;
        }
        if (e <= 0) {
            if (e < -10) {
                return sign;
            }
            mant |= 0x80_0000;
            int shift = 14 - e;
            int half = mant >>> shift;
            int rest = mant & ((1 << shift) - 1);
            int mid = 1 << (shift - 1);
            if (rest > mid || (rest == mid && (half & 1) != 0)) {
                half++;
            }
            return sign | half;
        }
        int half = (e << 10) | (mant >>> 13);
        int rest = mant & 0x1FFF;
        if (rest > 0x1000 || (rest == 0x1000 && (half & 1) != 0)) {
            half++;
        }
        return sign | half;
    }

    private static float halfToFloat(int h) {
        int sign = (h & 0x8000) << 16;
        int exp = (h >>> 10) & 0x1F;
        int mant = h & 0x3FF;
        if (exp == 0x1F) {
            return Float.intBitsToFloat(sign | 0x7F80_0000 | (mant << 13));
        }
        if (exp == 0) {
            float v = mant * 0x1p-24f;
            return sign != 0 ? -v : v;
        }
        return Float.intBitsToFloat(sign | ((exp - 15 + 127) << 23) | (mant << 13));
    }
}
