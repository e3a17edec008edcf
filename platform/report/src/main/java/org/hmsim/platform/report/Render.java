package org.hmsim.platform.report;

import java.awt.Graphics2D;
import java.awt.Rectangle;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.jfree.svg.SVGGraphics2D;

/** Draws a figure as SVG (JFreeSVG) and PNG (Java2D), without a display. */
public final class Render {
    private Render() {}

    /**
     * Charts are drawn off screen: ask AWT for its headless toolkit before anything loads it (the
     * container may run where no display exists; a user's -Djava.awt.headless wins).
     */
    public static void headless() {
        if (System.getProperty("java.awt.headless") == null) System.setProperty("java.awt.headless", "true");
    }

    /**
     * The figure as an {@code <svg>} element with a viewBox (so that a page can scale it), its id
     * {@code <figure id>-svg}; ids inside are prefixed with the figure's id.
     */
    public static String svgElement(Figure f) {
        headless();
        SVGGraphics2D g = new SVGGraphics2D(f.width(), f.height());
        // A fixed prefix per figure: deterministic output, and no clash of clip-path ids when several
        // figures share one HTML page.
        g.setDefsKeyPrefix(f.id() + "-");
        f.chart().draw(g, new Rectangle(f.width(), f.height()));
        String svg = g.getSVGElement(f.id() + "-svg");
        String size = "width='" + (double) f.width() + "' height='" + (double) f.height() + "'";
        return svg.replaceFirst(Pattern.quote(size), size + " viewBox='0 0 " + f.width() + " " + f.height() + "'");
    }

    /** A standalone SVG file of an element from {@link #svgElement}: no DOCTYPE, so no parser fetches a DTD. */
    public static String svgDocument(String element) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + element + "\n";
    }

    /** The figure as PNG bytes at {@code scale} times its size (2 for sharp figures on paper). */
    public static byte[] png(Figure f, double scale) {
        headless();
        int w = (int) Math.round(f.width() * scale), h = (int) Math.round(f.height() * scale);
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.scale(scale, scale);
            f.chart().draw(g, new Rectangle(f.width(), f.height()));
        } finally {
            g.dispose();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(img, "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
