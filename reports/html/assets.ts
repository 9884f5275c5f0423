/** The report's inline CSS and script: one self-contained file, no network, no external fonts. */

export const CSS = `
:root{--pass:#1a7f37;--fail:#cf222e;--unknown:#9a6700;--error:#8250df;--known:#0969da;--bg:#fff;--fg:#1f2328;--muted:#656d76;--line:#d0d7de;--soft:#f6f8fa}
*{box-sizing:border-box}
body{margin:0;padding:16px 24px;font:13px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:20px 0 8px}h4{margin:14px 0 6px;font-size:13px}
code,pre,.ms{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px}
pre{background:var(--soft);padding:8px;overflow:auto;max-height:220px;white-space:pre-wrap}
.muted{color:var(--muted)}.warn{color:var(--fail);font-weight:600}
.summary-line{font-size:15px;font-weight:600}
.counts span{display:inline-block;margin-right:10px;padding:1px 8px;border-radius:10px;color:#fff}
.v-pass{--v:var(--pass)}.v-fail{--v:var(--fail)}.v-unknown{--v:var(--unknown)}.v-error{--v:var(--error)}.v-known{--v:var(--known)}
.badge{display:inline-block;min-width:56px;text-align:center;padding:0 6px;border-radius:4px;background:var(--v);color:#fff;font-weight:600;text-transform:uppercase;font-size:11px}
table{border-collapse:collapse}
.matrix th,.matrix td{border:1px solid var(--line);padding:3px 6px;text-align:center}
.matrix th.scenario{text-align:left;white-space:nowrap}.matrix .subject{display:block;font-weight:400;color:var(--muted);font-size:11px}
.matrix th.point{background:var(--soft)}.matrix th.mode{font-weight:400;color:var(--muted)}
.matrix th.profile{font-weight:400;text-align:left;white-space:nowrap}.matrix.profiled th.scenario{vertical-align:top}.matrix.profiled tr.group>*{border-top:2px solid var(--muted)}
.matrix td.cell{background:color-mix(in srgb,var(--v) 18%,#fff);min-width:54px}.matrix td.empty{background:#fff;color:var(--line)}
.chip{display:inline-block;margin:1px;padding:0 6px;border-radius:3px;background:var(--v);color:#fff;text-decoration:none;font-weight:600;font-size:11px}
.chip:hover{outline:2px solid var(--fg)}
.chip.same-as{opacity:.75;font-style:italic}
.toolbar{margin:10px 0}.toolbar button{font:inherit;margin-right:6px}
details.drill{border:1px solid var(--line);border-left:6px solid var(--v);border-radius:4px;margin:8px 0;background:#fff}
details.drill>summary{cursor:pointer;padding:6px 10px;background:color-mix(in srgb,var(--v) 7%,#fff)}
details.drill>summary .reason{margin:2px 0 0 64px;color:var(--fg)}
details.drill:target{box-shadow:0 0 0 3px color-mix(in srgb,var(--v) 40%,#fff)}
.body{padding:4px 14px 12px}
.checks td{padding:2px 8px 2px 0;vertical-align:top}.checks tr.v-fail .summary{color:var(--fail);font-weight:600}
.grid th,.grid td{border:1px solid var(--line);padding:2px 6px;text-align:left;vertical-align:top}
.cols{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:20px}
dl.incident{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0}dl.incident dt{color:var(--muted)}dl.incident dd{margin:0}dl.incident ul{margin:0;padding-left:18px}
.hash{word-break:break-all}
.lanes{position:relative;margin:6px 0}
.lane{display:flex;align-items:center;height:18px}.lane-name{width:88px;flex:none;color:var(--muted);font-size:11px}
.track{position:relative;flex:1;height:100%;border-bottom:1px dotted var(--line)}
.lane.axis .track{border-bottom:none;border-top:1px solid var(--muted)}
.tick{position:absolute;top:1px;transform:translateX(-50%);font-size:10px;color:var(--muted);white-space:nowrap}
.tick:first-child{transform:none}.tick:last-child{transform:translateX(-100%)}
.overlay{position:absolute;left:88px;right:0;top:0;bottom:18px;pointer-events:none}
.major{position:absolute;top:0;bottom:0;border-left:2px dashed}
.major-kill{border-color:var(--fail)}.major-exit{border-color:#0969da}.major-revoked{border-color:#bf8700}
.mark{position:absolute;top:4px;width:9px;height:9px;margin-left:-4px;border-radius:50%;background:var(--c);opacity:.85}
.mark-kill,.mark-exit,.mark-revoked{width:11px;height:11px;top:3px;border-radius:2px;opacity:1;outline:1px solid #fff}
.legend{font-size:11px;color:var(--muted)}.key{display:inline-block;width:14px;height:0;border-top:2px dashed;margin:0 4px 3px 10px}
.key-kill{border-color:var(--fail)}.key-exit{border-color:#0969da}.key-revoked{border-color:#bf8700}
.lane-client{--c:#0969da}.lane-kill{--c:#cf222e}.lane-server{--c:#1a7f37}.lane-survivors{--c:#bc4c00}.lane-containment{--c:#8250df}
.lane-revocation{--c:#bf8700}.lane-remote{--c:#1b7c83}.lane-retry{--c:#57606a}.lane-harness{--c:#8c959f}
.dot{display:inline-block;width:8px;height:8px;border-radius:50%;background:var(--c);margin-right:5px}
.events{max-height:260px;overflow:auto;border:1px solid var(--line);margin-top:6px}
table.tl{width:100%}table.tl th{position:sticky;top:0;background:var(--soft);text-align:left;padding:2px 6px}
table.tl td{padding:1px 6px;vertical-align:top;border-top:1px solid var(--soft)}table.tl td.ms{text-align:right;white-space:nowrap}
table.tl tr.row-kill{background:#ffebe9}table.tl tr.row-exit{background:#ddf4ff}table.tl tr.row-revoked{background:#fff8c5}
@media (max-width:900px){.cols{grid-template-columns:1fr}}
@media print{details.drill{break-inside:avoid}.toolbar{display:none}}
`;

/**
 * Opens the drill a matrix link points at (a closed <details> does not open by itself when it is
 * the target of a fragment), and the expand / collapse buttons.
 */
export const SCRIPT = `
(function(){
  function openTarget(){
    var id=decodeURIComponent(location.hash.slice(1));
    var el=id&&document.getElementById(id);
    if(el&&el.tagName==='DETAILS'){el.open=true;el.scrollIntoView();}
  }
  // A large run's drills keep their body in a file of their own (data-src), loaded once opened.
  window.crashDrillBody=function(id,html){
    var el=document.getElementById(id);
    if(el){el.querySelector('.body').innerHTML=html;el.setAttribute('data-loaded','');}
  };
  document.addEventListener('toggle',function(e){
    var d=e.target;
    if(!d.open||!d.getAttribute||!d.getAttribute('data-src')||d.hasAttribute('data-requested'))return;
    d.setAttribute('data-requested','');
    var url=d.getAttribute('data-src'),s=document.createElement('script');
    s.setAttribute('src',url);
    s.onerror=function(){d.querySelector('.body').innerHTML='<p class="warn">Cannot load '+url+': keep the report-drills folder beside report.html.</p>';};
    document.body.appendChild(s);
  },true);
  window.addEventListener('hashchange',openTarget);
  openTarget();
  document.querySelectorAll('button[data-open]').forEach(function(b){
    b.addEventListener('click',function(){
      var open=b.getAttribute('data-open')==='all';
      document.querySelectorAll('details.drill').forEach(function(d){d.open=open;});
    });
  });
})();
`;
