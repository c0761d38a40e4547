// The app's scripts start after the first paint (decision 104). The server's HTML holds Remix's
// module preloads and its module script under a `rel` and a `type` the browser ignores; the
// starter, run from the script of Remix's context (csp-stream.server.ts), puts the real ones in
// their place once the page has painted. In their place, one for one, so that React's hydration
// finds the elements where it left them.

export const HELD_PRELOAD_REL = 'x-modulepreload-after-paint'
export const HELD_MODULE_TYPE = 'text/x-module-after-paint'

/**
 * The starter's source. It waits for the parsed document, then for two frames (the second one's
 * callback comes after the first frame has been shown), or starts at once in a hidden tab, which
 * draws no frames; one second at most either way. Its own nonce goes to the module script, which
 * the policy would refuse without one; so only what carries that nonce is let go (HTML injected
 * into a page cannot know it, and must not have its script run with it).
 */
export const START_AFTER_PAINT = `(function(){
var d=document,nonce=d.currentScript&&d.currentScript.nonce,started=false;
function start(){
if(started||!nonce)return;started=true;
d.querySelectorAll('link[rel="${HELD_PRELOAD_REL}"]').forEach(function(held){
if(held.nonce!==nonce)return;var l=d.createElement('link');l.rel='modulepreload';l.href=held.href;
if(held.crossOrigin!==null)l.crossOrigin=held.crossOrigin;held.replaceWith(l)});
d.querySelectorAll('script[type="${HELD_MODULE_TYPE}"]').forEach(function(held){
if(held.nonce!==nonce)return;var s=d.createElement('script');s.type='module';s.nonce=nonce;s.textContent=held.textContent;held.replaceWith(s)})}
function afterPaint(){
if(d.visibilityState==='hidden')return start();
requestAnimationFrame(function(){requestAnimationFrame(function(){setTimeout(start,0)})});setTimeout(start,1000)}
if(d.readyState==='loading')d.addEventListener('DOMContentLoaded',afterPaint);else afterPaint()})()`
