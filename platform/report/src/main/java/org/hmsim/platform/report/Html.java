package org.hmsim.platform.report;

import java.util.List;
import java.util.StringJoiner;

/**
 * A self-contained HTML page: the style sheet and the table-sorting script are inline, figures are inline
 * SVG, and nothing refers to the network, so the file opens offline and can be mailed or archived alone.
 */
final class Html {
    private final StringBuilder b = new StringBuilder();

    static final String CSS = String.join("\n",
            "body{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;margin:24px auto;max-width:1240px;color:#222;line-height:1.4;padding:0 16px}",
            "h1{font-size:26px;margin-bottom:4px}h2{font-size:20px;border-bottom:1px solid #ccc;padding-bottom:4px;margin-top:36px}",
            ".sub{color:#555;margin-top:0}",
            "figure.figure{margin:18px 0 28px 0;padding:8px;border:1px solid #e4e4e4;border-radius:4px;background:#fff}",
            "figure.figure svg{max-width:100%;height:auto;display:block}",
            "figcaption{font-size:14px;color:#333;margin-top:6px}figcaption .files{color:#666;font-size:12px}",
            ".pair{display:grid;grid-template-columns:1fr 1fr;gap:12px}.pair h3{font-size:14px;margin:4px 0}",
            ".note{color:#8a4b00;font-size:13px}",
            ".scroll{overflow-x:auto;max-width:100%}",
            "table{border-collapse:collapse;font-size:13px;margin:8px 0}",
            "th,td{border:1px solid #ddd;padding:3px 8px;text-align:left;white-space:nowrap}td.n{text-align:right;font-variant-numeric:tabular-nums}",
            "table.sortable th{cursor:pointer;background:#f3f3f3;user-select:none}table.sortable th:hover{background:#e6e6e6}",
            "th[data-sort=asc]::after{content:' \\25B2'}th[data-sort=desc]::after{content:' \\25BC'}",
            "tr.moved td{background:#fde8e8}tr.failed td{background:#fff3e0}",
            "pre.error{background:#fff6f6;border:1px solid #f0c8c8;padding:8px;font-size:12px;white-space:pre-wrap;max-height:260px;overflow:auto}",
            "dl.prov{display:grid;grid-template-columns:max-content auto;gap:2px 16px;font-size:14px}dl.prov dt{font-weight:bold}dl.prov dd{margin:0;word-break:break-all}");

    /** Sorts a table.sortable by the clicked header (numbers numerically, text alphabetically); toggles direction. */
    static final String JS = String.join("\n",
            "(function(){",
            "function key(row,i){var c=row.cells[i];if(!c)return '';var v=c.getAttribute('data-v');return v!==null?v:c.textContent.trim();}",
            "function num(s){return s!==''&&isFinite(s)?parseFloat(s):NaN;}",
            "document.querySelectorAll('table.sortable').forEach(function(t){",
            " var heads=t.tHead?t.tHead.rows[0].cells:[];",
            " Array.prototype.forEach.call(heads,function(th,i){th.title='click to sort';th.addEventListener('click',function(){",
            "  var asc=th.getAttribute('data-sort')!=='asc';",
            "  Array.prototype.forEach.call(heads,function(h){h.removeAttribute('data-sort');});",
            "  th.setAttribute('data-sort',asc?'asc':'desc');",
            "  var body=t.tBodies[0],rows=Array.prototype.slice.call(body.rows);",
            "  rows.sort(function(a,b){var x=key(a,i),y=key(b,i),nx=num(x),ny=num(y);",
            "   var c=(!isNaN(nx)&&!isNaN(ny))?nx-ny:(isNaN(nx)!==isNaN(ny)?(isNaN(nx)?1:-1):x.localeCompare(y));return asc?c:-c;});",
            "  rows.forEach(function(r){body.appendChild(r);});",
            " });});",
            "});",
            "var only=document.getElementById('only-moved');",
            "if(only){only.addEventListener('change',function(){document.querySelectorAll('tr.same').forEach(function(r){r.style.display=only.checked?'none':'';});});}",
            "})();");

    static String esc(String s) {
        if (s == null) return "";
        StringBuilder o = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> o.append("&lt;");
                case '>' -> o.append("&gt;");
                case '&' -> o.append("&amp;");
                case '"' -> o.append("&quot;");
                default -> o.append(c);
            }
        }
        return o.toString();
    }

    /** Marks a page as hmsim's, so a later {@code report --out} may replace it and no page of the user's (README "Reports"). */
    static final String GENERATOR = "<meta name=\"generator\" content=\"hmsim\">";

    Html open(String title) {
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">").append(GENERATOR)
                .append("<title>").append(esc(title)).append("</title><style>\n").append(CSS).append("\n</style></head><body>\n");
        return this;
    }

    Html raw(String s) {
        b.append(s);
        return this;
    }

    Html h(int level, String id, String text) {
        b.append("<h").append(level).append(id == null ? "" : " id=\"" + esc(id) + "\"").append('>').append(esc(text)).append("</h").append(level).append(">\n");
        return this;
    }

    Html p(String cls, String text) {
        b.append("<p").append(cls == null ? "" : " class=\"" + cls + "\"").append('>').append(esc(text)).append("</p>\n");
        return this;
    }

    /** A figure: inline SVG, caption, its notes and the names of its files. */
    Html figure(Figure f, String svg, boolean files) {
        b.append("<figure class=\"figure\" id=\"").append(esc(f.id())).append("\" data-figure=\"").append(esc(f.id())).append("\">\n")
                .append(svg).append("\n<figcaption>").append(esc(f.caption()));
        for (String n : f.notes()) b.append("<br><span class=\"note\">").append(esc(n)).append("</span>");
        if (files) {
            StringJoiner names = new StringJoiner(" \u00b7 ");
            for (String ext : f.files()) names.add("figures/" + f.id() + "." + ext);
            b.append("<br><span class=\"files\">").append(esc(names.toString())).append("</span>");
        }
        b.append("</figcaption></figure>\n");
        return this;
    }

    /**
     * A sortable table; a cell that is a number is right-aligned and sorted by value; {@code rowClasses}
     * (may be null) gives each row a class.
     */
    Html table(String id, List<String> head, List<List<String>> rows, List<String> rowClasses) {
        b.append("<div class=\"scroll\"><table class=\"sortable\"").append(id == null ? "" : " id=\"" + esc(id) + "\"").append("><thead><tr>");
        for (String h : head) b.append("<th>").append(esc(h)).append("</th>");
        b.append("</tr></thead><tbody>\n");
        for (int r = 0; r < rows.size(); r++) {
            String cls = rowClasses == null ? null : rowClasses.get(r);
            b.append("<tr").append(cls == null || cls.isEmpty() ? "" : " class=\"" + cls + "\"").append('>');
            for (String c : rows.get(r)) {
                boolean n = !Double.isNaN(Numbers.parse(c)) || c.endsWith(" %") && !Double.isNaN(Numbers.leading(c));
                b.append(n ? "<td class=\"n\"" : "<td");
                if (c.endsWith(" %")) b.append(" data-v=\"").append(Numbers.leading(c)).append('"');
                b.append('>').append(esc(c)).append("</td>");
            }
            b.append("</tr>\n");
        }
        b.append("</tbody></table></div>\n");
        return this;
    }

    Html pre(String cls, String text) {
        b.append("<pre class=\"").append(cls).append("\">").append(esc(text)).append("</pre>\n");
        return this;
    }

    String close() {
        b.append("<script>\n").append(JS).append("\n</script>\n</body></html>\n");
        return b.toString();
    }
}
