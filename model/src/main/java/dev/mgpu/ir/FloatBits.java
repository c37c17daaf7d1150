package dev.mgpu.ir;

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

    /**
     * The MLIR text of a float constant of type {@code t}: scientific notation with six digits when that
     * reads back to the same value, else the shortest decimal that does, else (NaN, infinities) the bits
     * in hexadecimal, as upstream prints them.
     *
     * @param v the value
     * @param t the float type
     * @return the constant's text
     */
    public static String format(double v, Type.FloatType t) {
        if (Double.isFinite(v)) {
            String s = String.format(Locale.ROOT, "%.6e", v);
            if (round(Double.parseDouble(s), t) == v) {
                return s;
            }
            String r = t.kind() == Type.FloatType.Kind.F64 ? Double.toString(v) : Float.toString((float) v);
            if (!r.contains("E") && round(Double.parseDouble(r), t) == v) {
                return r;
            }
        }
        int digits = t.width() / 4;
        return "0x" + String.format(Locale.ROOT, "%0" + digits + "X", bits(v, t));
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
