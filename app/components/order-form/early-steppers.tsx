// No dead taps (issue 50): the app's scripts start after the first paint (decision 104) and the
// order form's chunk after them, seconds later on a slow phone. This inline script, right after the
// form in the server's HTML, brings the steppers' «−»/«+» to life at once: it steps the quantity
// input itself, and the form, once hydrated, starts from what the inputs hold (order-form.tsx) and
// renders `data-live` in the same commit that lets its own buttons take taps; from then on the
// script leaves the taps to it. Every tap is stepped exactly once:
// - the script listens on the window in the capture phase, ahead of React: once the page's scripts
//   have started but the form's chunk has not, React stops a click inside the form's still-dehydrated
//   part from propagating (react-dom's selective hydration), and a listener on the form never saw it;
// - a tap it steps is marked with preventDefault(), and the form's own handlers skip a marked tap (a
//   click can hydrate the form synchronously and then reach React's handler too).
// Without JavaScript the buttons stay disabled and the number is typed. It carries the response's
// nonce (the page policy).
import { useNonce } from '#app/components/nonce'

// «−» below the pack's minimum empties it, «+» from empty starts at the minimum (as step() does); a
// number typed in sets which of the two may be tapped (review L-f: «−» stayed off after typing 3)
const SOURCE = `(function(){var f=document.querySelector('form.order-form');if(!f)return;
function sync(s){var i=s.querySelector('input'),b=s.querySelectorAll('button');if(!i||i.disabled||b.length<2)return;
var v=+i.value||0;b[0].disabled=v<=0;b[1].disabled=v>=+i.max}
f.querySelectorAll('.stepper').forEach(sync);
f.addEventListener('input',function(e){var s=!f.hasAttribute('data-live')&&e.target.closest('.stepper');if(s)sync(s)});
addEventListener('click',function(e){if(f.hasAttribute('data-live'))return;
var b=e.target.closest&&e.target.closest('.stepper button');if(!b||b.disabled||!f.contains(b))return;
var s=b.parentNode,i=s.querySelector('input'),v=+i.value||0,m=+i.getAttribute('data-min')||1;
i.value=b===s.lastElementChild?Math.min(Math.max(v+1,m),+i.max):v-1<m?0:v-1;sync(s);e.preventDefault()},true)})()`

export function EarlySteppers() {
  const nonce = useNonce()
  // the same text on the server and in the browser: hydration keeps the element as it is
  // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script of ours
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: SOURCE }} />
}
