/// The report's style sheet: light and dark by the browser's preference, and a print layout
/// (white paper, no section split across pages) for taking it to a doctor.
enum ReportStyle {
    static let css = """
        :root{color-scheme:light dark;--bg:#fff;--fg:#1d2330;--muted:#5b6475;--grid:#e3e6ec;--card:#f5f7fa;
        --line:#c0392b;--gap:#f3d9d6;--covered:#2e86c1;--s0:#2e86c1;--s1:#27ae60;--s2:#e67e22;--s3:#8e44ad;--s4:#16a085;
        --s5:#7f8c8d;--deep:#1f3a93;--core:#3c78d8;--rem:#8e7cc3;--asleep:#6fa8dc;--awake:#e69138}
        @media (prefers-color-scheme:dark){:root{--bg:#14171c;--fg:#e6e9ef;--muted:#9aa3b2;--grid:#2a2f38;
        --card:#1c2027;--line:#ff7b6b;--gap:#4a2a2a;--covered:#5dade2;--s0:#5dade2;--s1:#58d68d;--s2:#f5b041;
        --s3:#bb8fce;--s4:#48c9b0;--s5:#aab7b8;--deep:#6d8ce8;--core:#7fa7ee;--rem:#b4a7e0;--asleep:#9fc5e8;--awake:#f6b26b}}
        *{box-sizing:border-box}
        body{margin:0 auto;max-width:1000px;padding:24px;background:var(--bg);color:var(--fg);
        font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
        h1{margin:0 0 4px;font-size:26px}h2{margin:0 0 8px;font-size:19px}
        p.meta,p.note,.legend{color:var(--muted);font-size:13px;margin:4px 0 10px}
        section{margin:28px 0;break-inside:avoid;page-break-inside:avoid}
        .cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:10px}
        .card{background:var(--card);border-radius:8px;padding:10px 12px}
        .card .label{color:var(--muted);font-size:12px}.card .value{font-size:22px;font-weight:600}
        .chart{width:100%;height:auto;display:block}
        .chart .grid{stroke:var(--grid);stroke-width:1}.chart .axis{fill:var(--muted);font-size:10px}
        .chart .line{fill:none;stroke:var(--line);stroke-width:1.5}.chart .dot{fill:var(--line)}.chart .faint{opacity:.35}
        .s0{fill:var(--s0)}.s1{fill:var(--s1)}.s2{fill:var(--s2)}.s3{fill:var(--s3)}.s4{fill:var(--s4)}.s5{fill:var(--s5)}
        .deep{fill:var(--deep)}.core{fill:var(--core)}.rem{fill:var(--rem)}.asleep{fill:var(--asleep)}.awake{fill:var(--awake)}
        .gap{fill:var(--gap)}.covered{fill:var(--covered)}
        .legend span{display:inline-block;margin-right:14px}
        .legend i{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:5px;vertical-align:-1px}
        table{border-collapse:collapse;width:100%;font-size:13px}
        th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--grid)}td.n,th.n{text-align:right}
        .empty{color:var(--muted);font-style:italic}
        footer{color:var(--muted);font-size:12px;margin-top:36px}
        @page{margin:14mm}
        @media print{:root{--bg:#fff;--fg:#000;--muted:#444;--grid:#ddd;--card:#f3f3f3}body{max-width:none;padding:0;font-size:12px}
        .card .value{font-size:18px}}
        """
}
