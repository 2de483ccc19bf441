// The landing page's one inline script (≤ 2 KB gzip): UTM parameters and referrer into
// hidden fields, a visit beacon (with the experiment variant; a prerendered page's only once shown), fetch submit with an inline thank-you, and the
// conversions: the tag script's lrcv() and a free-form conversion script from its <template>. A page left open past its form token's
// age takes a fresh token from the page and sends once more (after the minimum fill time
// the fresh token carries), so nothing typed is lost.
// Without it the form still posts.
import { ERROR_CODES } from '../../../contracts/errors.ts';

export const INLINE_SCRIPT = `(function(d){var f=d.getElementById('f');if(!f||!window.fetch)return;var e=f.elements,q=new URLSearchParams(location.search),r=d.referrer,s=q.get('utm_source');
['utm_source','utm_medium','utm_campaign','utm_content','utm_term'].forEach(function(k){var v=q.get(k);if(v)e[k].value=v.slice(0,200)});
e.referrer.value=r.slice(0,500);if(!s&&r)try{s=new URL(r).hostname}catch(x){}
function vb(){try{navigator.sendBeacon('/api/public/visits',new URLSearchParams({shopCode:e.shopCode.value,landingCode:e.landingCode.value,source:s||'direct',_x:e._x?e._x.value:''}))}catch(x){}}
if(d.prerendering)d.addEventListener('prerenderingchange',vb,{once:true});else vb();
var m=d.getElementById('m'),b=f.querySelector('button');
function fire(){try{window.lrcv&&lrcv()}catch(x){}var t=d.getElementById('cv');if(!t)return;[].forEach.call(t.content.cloneNode(true).childNodes,function(n){if(n.nodeName=='SCRIPT'){var c=d.createElement('script');[].forEach.call(n.attributes,function(a){c.setAttribute(a.name,a.value)});c.text=n.text;n=c}d.body.appendChild(n)})}
function p(r){fetch(f.action,{method:'POST',body:new URLSearchParams(new FormData(f)),headers:{Accept:'application/json'}}).then(function(x){return x.json().then(function(j){
if(x.ok){fire();var u=f.getAttribute('data-r');if(u)return setTimeout(function(){location.href=u},500);f.hidden=true;var o=d.getElementById('ok');o.hidden=false;o.focus();return}
var g=j.error||{},k=g.fields||{},n=Object.keys(k);
if(g.code=='${ERROR_CODES.TOKEN_EXPIRED}'&&!r)return fetch(location.pathname,{cache:'reload'}).then(function(y){return y.text()}).then(function(h){e._t.value=/name="_t" value="([^"]+)"/.exec(h)[1];setTimeout(p,2100,1)});n.forEach(function(i){var el=e[i];if(el&&el.setAttribute)el.setAttribute('aria-invalid','true')});
m.textContent=n.length?n.map(function(i){return k[i]}).join(' '):g.message||'접수하지 못했습니다.';b.disabled=false})}).catch(function(){m.textContent='네트워크 오류로 접수하지 못했습니다. 다시 시도해 주세요.';b.disabled=false})}
f.addEventListener('submit',function(v){v.preventDefault();b.disabled=true;m.textContent='';p()})})(document)`;
