// The app's scripts start after the first paint (decision 104). The server's HTML holds Remix's
// module preloads and its module script under a `rel` and a `type` the browser ignores; the
// starter, run from the script of Remix's context (csp-stream.server.ts), puts the real ones in
// their place once the page has painted. In their place, one for one, so that React's hydration
// finds the elements where it left them.

export const HELD_PRELOAD_REL = 'x-modulepreload-after-paint'
export const HELD_MODULE_TYPE = 'text/x-module-after-paint'

/**
 * The starter's source for a response whose CSP nonce is `nonce`. It lets go what is held once the
 * browser reports the first contentful paint (Paint Timing; where that is missing, two frames after
 * the parsed document), at once in a hidden tab, which draws no frames, and three seconds after it
 * runs in any case (a page still streaming starts its app then). Two frames were not enough on a
 * loaded machine: the paint was shown later than the second frame's callback. Letting go twice is
 * harmless: what was let go is no longer held.
 *
 * Only what carries the response's nonce is let go: HTML injected into a page cannot know it, and
 * must not have its script run with it. The nonce is written into the source rather than read from
 * `document.currentScript`, which injected markup could shadow (`<img name="currentScript">`); the
 * page caches put a fresh nonce in every place the render's appears. A failure inside stays inside:
 * the starter shares its script with Remix's context.
 */
export function starterSource(nonce: string): string {
  return `(function(){try{var d=document,n=${JSON.stringify(nonce)};
function go(){d.querySelectorAll('link[rel="${HELD_PRELOAD_REL}"],script[type="${HELD_MODULE_TYPE}"]').forEach(function(h){
if((h.nonce||h.getAttribute('nonce'))!==n)return;var e=d.createElement(h.tagName);
if(h.tagName==='LINK'){e.rel='modulepreload';e.setAttribute('href',h.getAttribute('href'));if(h.crossOrigin!==null)e.crossOrigin=h.crossOrigin}
else{e.type='module';e.nonce=n;e.textContent=h.textContent}h.replaceWith(e)})}
function paint(){if(d.visibilityState==='hidden')return go();
if(window.PerformanceObserver&&(PerformanceObserver.supportedEntryTypes||[]).indexOf('paint')>=0){
var o=new PerformanceObserver(function(l){if(l.getEntriesByName('first-contentful-paint').length){o.disconnect();go()}});
return o.observe({type:'paint',buffered:true})}
requestAnimationFrame(function(){requestAnimationFrame(function(){setTimeout(go,0)})})}
setTimeout(go,3000);d.readyState==='loading'?d.addEventListener('DOMContentLoaded',paint):paint()}catch(x){}})()`
}
