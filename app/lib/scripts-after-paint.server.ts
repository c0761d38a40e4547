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
export const START_AFTER_PAINT = `(function(){var d=document,n=d.currentScript&&d.currentScript.nonce,k=0;
function go(){if(k||!n)return;k=1;d.querySelectorAll('link[rel="${HELD_PRELOAD_REL}"],script[type="${HELD_MODULE_TYPE}"]').forEach(function(h){
if(h.nonce!==n)return;var e=d.createElement(h.tagName);
if(h.tagName==='LINK'){e.rel='modulepreload';e.href=h.href;if(h.crossOrigin!==null)e.crossOrigin=h.crossOrigin}
else{e.type='module';e.nonce=n;e.textContent=h.textContent}h.replaceWith(e)})}
function paint(){if(d.visibilityState==='hidden')return go();
requestAnimationFrame(function(){requestAnimationFrame(function(){setTimeout(go,0)})});setTimeout(go,1000)}
d.readyState==='loading'?d.addEventListener('DOMContentLoaded',paint):paint()})()`
