"""The scoreboard's page: one HTML document with its style and script, nothing fetched from elsewhere.

It reads /state once, then follows /events (each change of the game, within 0.1 s) and
fetches /history when the game has more lines than it holds. When the tower has no stream
to spare (web/server.py's MAX_STREAMS), it reads /state every 2 s and asks again later. It draws each game's own
gauges from the game's state as the tower saves it (scoreboard.py): Battlerealm's PVP
Points towards 21, Marvel United's KO tokens towards the threshold, Marvel Champions'
threat by scheme stage and hit points, each hero with their allies and the minions engaged
with them (the state's [player, name, hit points] lists, absent until one is played),
Battleworld's battles won and lost; the roll as dice with their locks and the advisor's
chance. Large type, one column: a phone held at arm's length. The buttons at the foot
press the tower's own, with the PIN on its OLED.
"""

HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>dicetower</title>
<style>
body{margin:0;font:18px/1.35 system-ui,sans-serif;background:#0b0e18;color:#e8ecf4}
main{max-width:640px;margin:auto;padding:12px}
h1{font-size:22px;margin:4px 0 10px;display:flex;justify-content:space-between;align-items:center}
#live{font-size:14px;padding:2px 8px;border-radius:9px;background:#633}
#live.on{background:#264}
section{background:#161b2b;border-radius:12px;padding:10px 12px;margin:10px 0}
h2{font-size:15px;text-transform:uppercase;letter-spacing:.06em;color:#9aa6c4;margin:0 0 6px}
.row{display:flex;align-items:center;gap:8px;margin:6px 0}
.name{flex:0 0 38%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.turn .name{font-weight:700;color:#ffd54a}
.gauge{flex:1;height:22px;background:#262d44;border-radius:11px;overflow:hidden;position:relative}
.gauge i{display:block;height:100%;background:#4a8cff}
.gauge b{position:absolute;inset:0;text-align:center;font-size:15px;line-height:22px}
.bad i{background:#e0533d}.good i{background:#3dbb6c}
.tag{font-size:13px;padding:1px 6px;border-radius:6px;background:#3a4160;margin-left:4px}
.cards{font-size:15px;color:#c9d2e8;margin:-2px 0 6px 12px}
#dice{display:flex;gap:8px;flex-wrap:wrap;margin-bottom:10px}
.die{width:48px;height:48px;border-radius:10px;display:flex;align-items:center;justify-content:center;
font-weight:800;font-size:20px;color:#111;position:relative}
.die.locked{outline:3px solid #fff}.die.advised{box-shadow:0 0 0 4px #ffd54a}
.die .lock{position:absolute;bottom:-8px;font-size:10px;line-height:14px;padding:0 4px;border-radius:4px;
background:#fff;color:#111;text-transform:uppercase}
.Mutant{background:#f6d743}.Science{background:#52c7ea}.Skill{background:#f08c3a}
.Tech{background:#b6bcc8}.Cosmic{background:#c07ef0}.Mystic{background:#ef6a8a}
ol{margin:0;padding-left:22px}li{margin:3px 0}
#over{background:#5a3b00;font-size:20px;font-weight:700;display:none}
#keys{display:grid;grid-template-columns:repeat(3,1fr);gap:8px}
button{font:inherit;padding:12px;border-radius:10px;border:0;color:#fff;background:#2f3a5c}
input{font:inherit;width:7em;padding:8px;border-radius:8px;border:0}
#said{font-size:15px;color:#9aa6c4;min-height:1.3em}
</style></head><body><main>
<h1><span id="title">dicetower</span><span id="live">offline</span></h1>
<section id="over"></section>
<section><h2 id="where">Scores</h2><div id="scores"></div><div id="message"></div></section>
<section id="rollbox" style="display:none"><h2>Roll</h2><div id="dice"></div><div id="chance"></div></section>
<section><h2>Last results</h2><ol id="results" reversed></ol></section>
<section><details><summary>History (<span id="moves">0</span>)</summary><ol id="history"></ol></details></section>
<section><h2>Press the tower</h2>
<div class="row">PIN <input id="pin" inputmode="numeric" autocomplete="off"></div>
<div id="keys"></div><div id="said"></div></section>
</main><script>
"use strict";
const $=id=>document.getElementById(id);
const GAMES={battlerealm:"Battlerealm",champions:"Marvel Champions",united:"Marvel United",battleworld:"Battleworld"};
let lines=[],want=0,fetching=false;
function el(tag,cls,text){const e=document.createElement(tag);if(cls)e.className=cls;if(text!=null)e.textContent=text;return e}
function gauge(name,value,top,label,cls,turn,tags){
 const r=el("div","row"+(turn?" turn":""));const n=el("span","name",name);
 for(const t of tags||[])n.appendChild(el("span","tag",t));
 const g=el("div","gauge "+(cls||""));const f=el("i");f.style.width=Math.max(0,Math.min(100,100*value/Math.max(1,top)))+"%";
 g.appendChild(f);g.appendChild(el("b",null,label));r.appendChild(n);r.appendChild(g);return r}
function scores(d){
 const s=d.state,box=$("scores");box.replaceChildren();let where="";
 if(d.kind==="battlerealm"){
  where="Round "+s.round+" \\u00b7 "+s.heroes[s.turn].name+"'s turn";
  s.heroes.forEach((h,i)=>{const tags=[];if(h.prison)tags.push("Crystal Prison");if(h.out)tags.push("out");
   if(d.places&&!h.out&&!h.prison)tags.push(d.places[h.place]);
   box.appendChild(gauge(h.name,h.pvp,d.goal,h.pvp+" / "+d.goal+" PVP",h.out?"bad":"",i===s.turn&&!s.over,tags))});
 }else if(d.kind==="united"){
  const ko=s.heroes.reduce((a,h)=>a+h.ko,0);where="KO tokens "+ko+" of "+s.threshold;
  box.appendChild(gauge("All heroes",ko,s.threshold,ko+" / "+s.threshold+" KO","bad"));
  s.heroes.forEach(h=>box.appendChild(gauge(h.name,h.ko,s.threshold,h.ko+" KO","bad",false,["team "+(h.team+1)])));
  box.appendChild(el("div",null,"Duel: Gladiator "+s.gladiator+", heroes "+s.heroes_duel+" \\u00b7 Mist "+s.mist+" \\u00b7 Water "+s.water));
 }else if(d.kind==="champions"){
  where="Round "+s.round+" \\u00b7 "+s.phase+" phase \\u00b7 first player "+s.heroes[s.first].name;
  s.areas.forEach(a=>{const sc=a.scheme,t=sc.stages[sc.stage][0];
   box.appendChild(gauge(sc.name+" (stage "+(sc.stage+1)+")",sc.threat,t,sc.threat+" / "+t+" threat","bad"));
   a.sides.forEach(x=>box.appendChild(gauge(x.name,x.threat,Math.max(x.threat,1),x.threat+" threat","bad",false,x.crisis?["crisis"]:[])));
   const v=a.villain,vt=v.stages[v.stage]*Math.max(1,a.players.length);
   box.appendChild(gauge(v.name,v.hp,vt,v.hp+" hp","bad"))});
  const cards=(key,i)=>(s[key]||[]).filter(c=>c[0]===i).map(c=>c[1]+" ("+c[2]+" hp)").join(", ");
  s.heroes.forEach((h,i)=>{box.appendChild(gauge(h.name,h.hp,h.max,h.hp+" / "+h.max+" hp",h.out?"bad":"good",false,h.out?["out"]:[]));
   const a=cards("allies",i),m=cards("minions",i);
   if(a)box.appendChild(el("div","cards allies","Allies: "+a));
   if(m)box.appendChild(el("div","cards minions","Engaged minions: "+m))});
 }else if(d.kind==="battleworld"){
  where="Won "+s.won+" of "+s.wins_needed+" \\u00b7 lost "+s.lost+" of 3";
  box.appendChild(gauge("Battles won",s.won,s.wins_needed,s.won+" / "+s.wins_needed,"good"));
  box.appendChild(gauge("Battles lost",s.lost,3,s.lost+" / 3","bad"));
  s.battles.forEach(b=>box.appendChild(gauge(b.name,b.hits,b.hits_needed,b.result||(b.hits+" / "+b.hits_needed+" hits, danger "+b.danger+"/3"),
   b.result==="won"?"good":(b.result?"bad":""))));
 }
 $("where").textContent=where||"Scores"}
function roll(d){
 const r=d.roll,box=$("rollbox");if(!r){box.style.display="none";return}
 box.style.display="";const dice=$("dice");dice.replaceChildren();
 r.faces.forEach((f,i)=>{const e=el("div","die "+f+(r.locked[i]?" locked":"")+((r.advised||[]).includes(i)?" advised":""),f.slice(0,2));
  e.title=f;if(r.locked[i])e.appendChild(el("span","lock","lock"));dice.appendChild(e)});
 let t=r.rerolls_left+" re-roll"+(r.rerolls_left===1?"":"s")+" left"+(r.lucky_left?", Lucky":"");
 if(r.chance!=null)t+=" \\u00b7 advice: "+r.chance+"% to pay, "+r.risk+"% risk"+(r.advised&&r.advised.length?" (re-roll the ringed dice)":" (keep them)");
 else if(r.thinking)t+=" \\u00b7 working out the advice\\u2026";
 $("chance").textContent=t}
function show(d){
 $("title").textContent=d.kind?GAMES[d.kind]:"dicetower";
 $("message").textContent=d.message||"";
 const o=$("over");o.style.display=d.over?"block":"none";o.textContent=d.over?"Game over: "+d.over:"";
 if(d.kind)scores(d);else{$("scores").replaceChildren();$("where").textContent="No game yet"}
 roll(d);
 const res=$("results");res.replaceChildren();(d.results||[]).slice().reverse().forEach(l=>res.appendChild(el("li",null,l)));
 want=d.moves||0;$("moves").textContent=want;if(want!==lines.length)history()}
async function history(){
 if(fetching)return;fetching=true;
 try{const since=want<lines.length?0:lines.length;const r=await fetch("/history?since="+since);const h=await r.json();
  lines=lines.slice(0,h.since).concat(h.lines);const ol=$("history");ol.replaceChildren();lines.forEach(l=>ol.appendChild(el("li",null,l)))}
 catch(e){}finally{fetching=false}
 if(want!==lines.length)setTimeout(history,300)}
let polling=null;
function poll(){fetch("/state").then(r=>r.json()).then(d=>{show(d);if(polling){$("live").textContent="every 2 s";$("live").className="on"}})
 .catch(()=>{if(polling){$("live").textContent="offline";$("live").className=""}})}
function follow(){
 const es=new EventSource("/events");
 es.onopen=()=>{$("live").textContent="live";$("live").className="on";if(polling){clearInterval(polling);polling=null}};
 es.onmessage=e=>{try{show(JSON.parse(e.data))}catch(x){}};
 es.onerror=()=>{if(es.readyState!==2){$("live").textContent="offline";$("live").className="";return}
  // Refused (the tower serves a few live streams): read the game every 2 s, and try again later.
  if(!polling){polling=setInterval(poll,2000);poll()}setTimeout(follow,20000)}}
async function press(button,kind){
 const said=$("said");
 try{const r=await fetch("/press",{method:"POST",headers:{"Content-Type":"application/json"},
  body:JSON.stringify({button:button,kind:kind,pin:$("pin").value})});const a=await r.json();
  said.textContent=r.ok?"Pressed "+button.toUpperCase()+(kind==="long"?" (held)":""):a.error}
 catch(e){said.textContent="The tower did not answer."}}
for(const [b,k,label] of [["a","short","A"],["b","short","B"],["c","short","C"],["a","long","Hold A (undo)"],["b","long","Hold B"],["c","long","Hold C (back)"]]){
 const x=el("button",null,label);x.id="key-"+b+"-"+k;x.onclick=()=>press(b,k);$("keys").appendChild(x)}
fetch("/state").then(r=>r.json()).then(show).catch(()=>{});follow();
</script></body></html>
"""
