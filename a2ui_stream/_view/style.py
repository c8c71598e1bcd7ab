"""The page's fixed stylesheet: the look of the page and of every element's classes.

Owns the CSS the page always carries (the generated rules of
:class:`~a2ui_stream._view.css.Rules` follow it in the same ``<style>`` element). Class
names match what :mod:`a2ui_stream._view.html` and :mod:`a2ui_stream._view.page` write:
sizes ``s-*``, weights ``w-*``, colours ``c-*``, alignment ``al-*`` and ``jf-*``, chart
palette ``c0`` to ``c5``. System fonts only: a page never loads a font.

Imports nothing. Does no I/O.
"""

from __future__ import annotations

from typing import Final

__all__ = ["STYLESHEET"]

_PAGE = """\
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;
color:#1f2328;background:#f3f4f6}
a{color:#2563eb}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.page-header{padding:20px 28px 4px}
.page-header h1{margin:0;font-size:20px;overflow-wrap:anywhere}
.meta{color:#6b7280;font-size:13px;font-weight:400;margin:2px 0 0}
main{padding:0 28px 20px}
.run{margin:18px 0}
.run>h2{font-size:16px;margin:0 0 10px}
.run>h2 .meta{display:inline;margin-left:8px}
.parts{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
.part{background:#fff;border:1px solid #e5e7eb;border-radius:12px;
box-shadow:0 1px 2px rgba(0,0,0,.05);padding:14px 16px;flex:1 1 380px;max-width:100%;min-width:0}
.part-header h3{margin:0;font-size:14px;
font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;overflow-wrap:anywhere}
.part.removed .surface{opacity:.55}
.removed-badge{display:inline-block;margin-left:6px;font-size:11px;font-weight:600;color:#991b1b;
background:#fee2e2;border-radius:999px;padding:0 8px}
.surface{margin-top:10px;display:flex;flex-direction:column;gap:8px;overflow-wrap:anywhere}
.empty-run{color:#6b7280;font-size:14px;margin:0}
.warnings{margin:10px 0 0;padding:6px 10px 6px 26px;font-size:12px;color:#92400e;background:#fffbeb;
border-radius:6px}
details{margin-top:10px}
summary{cursor:pointer;font-size:12px;color:#6b7280}
pre{font-size:12px;line-height:1.4;white-space:pre-wrap;overflow-wrap:anywhere;max-height:360px;
overflow:auto;background:#f9fafb;padding:8px;border-radius:6px;margin:6px 0 0}
.timeline ol{list-style:none;padding:0;margin:8px 0 0;display:flex;flex-direction:column;gap:12px}
.timeline li{border-left:3px solid #c7d2fe;padding-left:10px}
.step{margin:0 0 6px;font-size:12px;font-weight:600;color:#374151}
.diagnostics{margin-top:24px}
.diagnostics ol{font-size:12px;padding-left:24px}
.diagnostics li.error{color:#991b1b}
.diagnostics li.warning{color:#92400e}
.page-footer{padding:0 28px 24px;color:#9ca3af;font-size:12px}
"""

_ELEMENTS = """\
.card{border:1px solid #e5e7eb;border-radius:10px;padding:12px;background:#fff;min-width:0}
.card-title{margin:0 0 8px;font-size:15px;font-weight:600}
.card-body,.form,.col,.box,.with-children{display:flex;flex-direction:column;gap:8px;min-width:0}
.card-actions{display:flex;justify-content:flex-end;gap:8px;margin-top:12px}
.row{display:flex;flex-direction:row;flex-wrap:wrap;align-items:center;gap:8px;min-width:0}
.al-start{align-items:flex-start}.al-center{align-items:center}.al-end{align-items:flex-end}
.jf-start{justify-content:flex-start}.jf-center{justify-content:center}
.jf-end{justify-content:flex-end}.jf-between{justify-content:space-between}
.header{margin:0;font-size:18px;font-weight:600;line-height:1.3}
.text,.caption{margin:0}
.s-sm{font-size:13px}.s-md{font-size:15px}.s-lg{font-size:17px}
.s-xl{font-size:20px}.s-2xl{font-size:24px}.s-3xl{font-size:30px}
.w-normal{font-weight:400}.w-medium{font-weight:500}
.w-semibold{font-weight:600}.w-bold{font-weight:700}
.c-emphasis{color:#030712}.c-secondary{color:#6b7280}.c-alpha-70{color:rgba(31,35,40,.7)}
.c-white{color:#fff}.c-white-70{color:rgba(255,255,255,.7)}.c-white-50{color:rgba(255,255,255,.5)}
.caption{font-size:12px;color:#6b7280}
.markdown>:first-child{margin-top:0}.markdown>:last-child{margin-bottom:0}
.markdown p{margin:.4em 0}
.markdown h4,.markdown h5,.markdown h6{font-size:15px;margin:.5em 0 .3em}
.md-h1{font-size:22px}.md-h2{font-size:19px}.md-h3{font-size:17px}
.markdown code{background:#f3f4f6;padding:0 3px;border-radius:4px;font-size:90%}
.markdown pre{background:#f3f4f6}
.markdown img{max-width:100%}
.image{display:block;max-width:100%;height:auto;border-radius:6px}
.image.s-sm{width:48px}.image.s-md{width:96px}.image.s-lg{width:192px}
.image.round{border-radius:50%}
img.remote{border:1px dashed #c4c9d1}
.divider{border:0;border-top:1px solid #e5e7eb;margin:4px 0;width:100%}
.divider.flush{margin:0}
.fact{display:flex;justify-content:space-between;gap:12px;margin:0}
.fact dt{color:#6b7280}.fact dd{margin:0;font-weight:500;text-align:right}
.button-wrap{display:inline-flex;flex-direction:column;align-items:flex-start;gap:2px;
max-width:100%}
.button-wrap.block{display:flex;align-items:stretch}
.button{font:inherit;font-size:14px;font-weight:500;padding:6px 14px;border-radius:8px;
border:1px solid transparent;cursor:pointer}
.button.default,.button.primary{background:#111827;color:#fff}
.button.secondary{background:#e5e7eb;color:#111827}
.button.outline{background:#fff;border-color:#d1d5db;color:#111827}
.button.ghost{background:transparent;color:#111827}
.button.danger{background:#dc2626;color:#fff}
.button.block{width:100%}
.action{font-size:11px;color:#6b7280;overflow-wrap:anywhere}
.action-kind{color:#9ca3af}
.field{display:flex;flex-direction:column;gap:4px;font-size:13px}
.label{font-weight:500;color:#374151}
input,textarea,select{font:inherit;font-size:14px;padding:6px 8px;border:1px solid #d1d5db;
border-radius:8px;background:#fff;color:inherit;min-width:0}
input[type=radio],input[type=checkbox]{padding:0;margin:0}
.radios{border:0;padding:0;margin:0;display:flex;flex-direction:column;gap:4px}
.radios legend{font-weight:500;font-size:13px;padding:0;margin-bottom:4px}
.choice{display:flex;align-items:center;gap:6px;font-size:14px}
.spacer{flex:1 1 auto}
.badge{display:inline-block;font-size:12px;font-weight:500;padding:1px 8px;border-radius:999px;
background:#e5e7eb;color:#111827}
.v-secondary{background:#f3f4f6;color:#374151}.v-success{background:#dcfce7;color:#166534}
.v-warning{background:#fef3c7;color:#92400e}.v-danger,.v-destructive{background:#fee2e2;
color:#991b1b}
.v-info{background:#dbeafe;color:#1e40af}.v-outline{background:transparent;border:1px solid #d1d5db}
.list{list-style:none;margin:0;padding:0;display:flex;flex-direction:column}
.item{padding:8px 0;border-top:1px solid #f0f1f3;display:flex;flex-direction:column;gap:4px}
.item:first-child{border-top:0}
.table-wrap{overflow-x:auto}
table{border-collapse:collapse;font-size:14px;width:100%}
th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #e5e7eb}
th{font-weight:600;color:#374151}
.chart{margin:0}
.chart svg{max-width:100%;height:auto;display:block}
.chart .axis{stroke:#9ca3af;fill:none;stroke-width:1}
.chart .tick{font-size:10px;fill:#6b7280;stroke:none}
.chart rect{stroke:none}
.chart .line{fill:none;stroke-width:2}
.chart .fill{opacity:.25;stroke:none}
.c0{fill:var(--series,#2563eb);stroke:var(--series,#2563eb)}.c1{fill:#16a34a;stroke:#16a34a}
.c2{fill:#f59e0b;stroke:#f59e0b}.c3{fill:#dc2626;stroke:#dc2626}
.c4{fill:#7c3aed;stroke:#7c3aed}.c5{fill:#0891b2;stroke:#0891b2}
.legend{list-style:none;margin:4px 0 0;padding:0;display:flex;flex-wrap:wrap;gap:10px;
font-size:12px}
.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px}
.swatch.c0{background:var(--series,#2563eb)}.swatch.c1{background:#16a34a}
.swatch.c2{background:#f59e0b}
.swatch.c3{background:#dc2626}.swatch.c4{background:#7c3aed}.swatch.c5{background:#0891b2}
.empty figcaption{font-size:12px;color:#6b7280}
.alert{border-radius:8px;padding:10px 12px;border:1px solid;display:flex;flex-direction:column;
gap:4px;margin:0}
.alert.info{background:#eff6ff;border-color:#bfdbfe;color:#1e3a8a}
.alert.success{background:#f0fdf4;border-color:#bbf7d0;color:#14532d}
.alert.warning{background:#fffbeb;border-color:#fde68a;color:#78350f}
.alert.danger{background:#fef2f2;border-color:#fecaca;color:#7f1d1d}
.alert-title{margin:0;font-weight:600}.alert-description{margin:0}
.carousel-label{margin:0 0 4px;font-weight:500;font-size:13px}
.slides{display:flex;gap:12px;overflow-x:auto;scroll-snap-type:x mandatory;padding-bottom:4px}
.slide{flex:0 0 80%;scroll-snap-align:start;min-width:0}
.icon{width:20px;height:20px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;
stroke-linejoin:round;flex:none}
.icon.s-sm{width:16px;height:16px}.icon.s-md{width:20px;height:20px}.icon.s-lg{width:28px;
height:28px}
.icon-unknown{font-size:11px;border:1px dashed #d1d5db;padding:0 4px;border-radius:4px;
color:#6b7280}
.unknown{border:2px dashed #f59e0b;background:#fffbeb;border-radius:8px;padding:8px;display:flex;
flex-direction:column;gap:6px}
.unknown-label{margin:0;font-size:12px;font-weight:600;color:#92400e}
.placeholder{margin:0;font-size:12px;color:#92400e;background:#fffbeb;border:1px dashed #f59e0b;
border-radius:6px;padding:4px 8px}
.children{display:flex;flex-direction:column;gap:6px;padding-left:12px;
border-left:2px solid #f0f1f3}
"""

#: The fixed part of every page's one ``<style>`` element.
STYLESHEET: Final = _PAGE + _ELEMENTS
