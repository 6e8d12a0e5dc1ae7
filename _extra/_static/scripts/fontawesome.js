/*! Font Awesome Free 6.7.2 by @fontawesome - https://fontawesome.com | License - https://fontawesome.com/license/free (Icons: CC BY 4.0, Fonts: SIL OFL 1.1, Code: MIT License). Subset bundled for this book: only the 16 icons its pages use; source in tools/fontawesome-subset/entry.js. Replaces the theme's 1.5 MB all-icons bundle. */
(()=>{var q2=(c,l,s)=>()=>{if(s)throw s[0];try{return c&&(l=c(c=0)),l}catch(a){throw s=[a],a}};var C3=(c,l)=>()=>{try{return l||c((l={exports:{}}).exports,l),l.exports}catch(s){throw l=0,s}};function u3(c,l,s){return(l=x3(l))in c?Object.defineProperty(c,l,{value:s,enumerable:!0,configurable:!0,writable:!0}):c[l]=s,c}function W2(c,l){var s=Object.keys(c);if(Object.getOwnPropertySymbols){var a=Object.getOwnPropertySymbols(c);l&&(a=a.filter(function(e){return Object.getOwnPropertyDescriptor(c,e).enumerable})),s.push.apply(s,a)}return s}function i(c){for(var l=1;l<arguments.length;l++){var s=arguments[l]!=null?arguments[l]:{};l%2?W2(Object(s),!0).forEach(function(a){u3(c,a,s[a])}):Object.getOwnPropertyDescriptors?Object.defineProperties(c,Object.getOwnPropertyDescriptors(s)):W2(Object(s)).forEach(function(a){Object.defineProperty(c,a,Object.getOwnPropertyDescriptor(s,a))})}return c}function d3(c,l){if(typeof c!="object"||!c)return c;var s=c[Symbol.toPrimitive];if(s!==void 0){var a=s.call(c,l||"default");if(typeof a!="object")return a;throw new TypeError("@@toPrimitive must return a primitive value.")}return(l==="string"?String:Number)(c)}function x3(c){var l=d3(c,"string");return typeof l=="symbol"?l:l+""}function X(c){return new Proxy(c,{get(l,s){return s in l?l[s]:l[C]}})}function Z3(c){var l=p.querySelector("script["+c+"]");if(l)return l.getAttribute(c)}function c4(c){return c===""?!0:c==="false"?!1:c==="true"?!0:c}function l4(c){return V.push(c),()=>{V.splice(V.indexOf(c),1)}}function s4(c){if(!c||!A)return;let l=p.createElement("style");l.setAttribute("type","text/css"),l.innerHTML=c;let s=p.head.childNodes,a=null;for(let e=s.length-1;e>-1;e--){let n=s[e],o=(n.tagName||"").toUpperCase();["STYLE","LINK"].indexOf(o)>-1&&(a=n)}return p.head.insertBefore(l,a),c}function j(){let c=12,l="";for(;c-- >0;)l+=a4[Math.random()*62|0];return l}function W(c){let l=[];for(let s=(c||[]).length>>>0;s--;)l[s]=c[s];return l}function D2(c){return c.classList?W(c.classList):(c.getAttribute("class")||"").split(" ").filter(l=>l)}function v1(c){return"".concat(c).replace(/&/g,"&amp;").replace(/"/g,"&quot;").replace(/'/g,"&#39;").replace(/</g,"&lt;").replace(/>/g,"&gt;")}function e4(c){return Object.keys(c||{}).reduce((l,s)=>l+"".concat(s,'="').concat(v1(c[s]),'" '),"").trim()}function a2(c){return Object.keys(c||{}).reduce((l,s)=>l+"".concat(s,": ").concat(c[s].trim(),";"),"")}function R2(c){return c.size!==N.size||c.x!==N.x||c.y!==N.y||c.rotate!==N.rotate||c.flipX||c.flipY}function n4(c){let{transform:l,containerWidth:s,iconWidth:a}=c,e={transform:"translate(".concat(s/2," 256)")},n="translate(".concat(l.x*32,", ").concat(l.y*32,") "),o="scale(".concat(l.size/16*(l.flipX?-1:1),", ").concat(l.size/16*(l.flipY?-1:1),") "),f="rotate(".concat(l.rotate," 0 0)"),z={transform:"".concat(n," ").concat(o," ").concat(f)},r={transform:"translate(".concat(a/2*-1," -256)")};return{outer:e,inner:z,path:r}}function o4(c){let{transform:l,width:s=p2,height:a=p2,startCentered:e=!1}=c,n="";return e&&d1?n+="translate(".concat(l.x/v-s/2,"em, ").concat(l.y/v-a/2,"em) "):e?n+="translate(calc(-50% + ".concat(l.x/v,"em), calc(-50% + ").concat(l.y/v,"em)) "):n+="translate(".concat(l.x/v,"em, ").concat(l.y/v,"em) "),n+="scale(".concat(l.size/v*(l.flipX?-1:1),", ").concat(l.size/v*(l.flipY?-1:1),") "),n+="rotate(".concat(l.rotate,"deg) "),n}function P1(){let c=b1,l=S1,s=t.cssPrefix,a=t.replacementClass,e=i4;if(s!==c||a!==l){let n=new RegExp("\\.".concat(c,"\\-"),"g"),o=new RegExp("\\--".concat(c,"\\-"),"g"),f=new RegExp("\\.".concat(l),"g");e=e.replace(n,".".concat(s,"-")).replace(o,"--".concat(s,"-")).replace(f,".".concat(a))}return e}function t2(){t.autoAddCss&&!Q2&&(s4(P1()),Q2=!0)}function t4(c){A&&(c2?setTimeout(c,0):T1.push(c))}function K(c){let{tag:l,attributes:s={},children:a=[]}=c;return typeof c=="string"?v1(c):"<".concat(l," ").concat(e4(s),">").concat(a.map(K).join(""),"</").concat(l,">")}function $2(c,l,s){if(c&&c[l]&&c[l][s])return{prefix:l,iconName:s,icon:c[l][s]}}function z4(c){let l=[],s=0,a=c.length;for(;s<a;){let e=c.charCodeAt(s++);if(e>=55296&&e<=56319&&s<a){let n=c.charCodeAt(s++);(n&64512)==56320?l.push(((e&1023)<<10)+(n&1023)+65536):(l.push(e),s--)}else l.push(e)}return l}function h2(c){let l=z4(c);return l.length===1?l[0].toString(16):null}function L4(c,l){let s=c.length,a=c.charCodeAt(l),e;return a>=55296&&a<=56319&&s>l+1&&(e=c.charCodeAt(l+1),e>=56320&&e<=57343)?(a-55296)*1024+e-56320+65536:a}function J2(c){return Object.keys(c).reduce((l,s)=>{let a=c[s];return!!a.icon?l[a.iconName]=a.icon:l[s]=a,l},{})}function g2(c,l){let s=arguments.length>2&&arguments[2]!==void 0?arguments[2]:{},{skipHooks:a=!1}=s,e=J2(l);typeof b.hooks.addPack=="function"&&!a?b.hooks.addPack(c,J2(l)):b.styles[c]=i(i({},b.styles[c]||{}),e),c==="fas"&&g2("fa",l)}function p4(c){return~J3.indexOf(c)}function C4(c,l){let s=l.split("-"),a=s[0],e=s.slice(1).join("-");return a===c&&e!==""&&!p4(e)?e:null}function H2(c,l){return(D1[c]||{})[l]}function u4(c,l){return(R1[c]||{})[l]}function D(c,l){return(O1[c]||{})[l]}function I1(c){return E1[c]||{prefix:null,iconName:null}}function d4(c){let l=H1[c],s=H2("fas",c);return l||(s?{prefix:"fas",iconName:s}:null)||{prefix:null,iconName:null}}function T(){return E2}function x4(c){let l=C,s=B1.reduce((a,e)=>(a[e]="".concat(t.cssPrefix,"-").concat(e),a),{});return g1.forEach(a=>{(c.includes(s[a])||c.some(e=>M4[a].includes(e)))&&(l=a)}),l}function e2(c){let l=arguments.length>1&&arguments[1]!==void 0?arguments[1]:{},{family:s=C}=l,a=Y3[s][c];if(s===s2&&!c)return"fad";let e=K2[s][c]||K2[s][a],n=c in b.styles?c:null;return e||n||null}function h4(c){let l=[],s=null;return c.forEach(a=>{let e=C4(t.cssPrefix,a);e?s=e:a&&l.push(a)}),{iconName:s,rest:l}}function Z2(c){return c.sort().filter((l,s,a)=>a.indexOf(l)===s)}function n2(c){let l=arguments.length>1&&arguments[1]!==void 0?arguments[1]:{},{skipLookups:s=!1}=l,a=null,e=M2.concat(R3),n=Z2(c.filter(M=>e.includes(M))),o=Z2(c.filter(M=>!M2.includes(M))),f=n.filter(M=>(a=M,!h1.includes(M))),[z=null]=f,r=x4(n),L=i(i({},h4(o)),{},{prefix:e2(z,{family:r})});return i(i(i({},L),S4({values:c,family:r,styles:Y,config:t,canonical:L,givenPrefix:a})),g4(s,a,L))}function g4(c,l,s){let{prefix:a,iconName:e}=s;if(c||!a||!e)return{prefix:a,iconName:e};let n=l==="fa"?I1(e):{},o=D(a,e);return e=n.iconName||o||e,a=n.prefix||a,a==="far"&&!Y.far&&Y.fas&&!t.autoFetchSvg&&(a="fas"),{prefix:a,iconName:e}}function S4(c){let{values:l,family:s,canonical:a,givenPrefix:e="",styles:n={},config:o={}}=c,f=s===s2,z=l.includes("fa-duotone")||l.includes("fad"),r=o.familyDefault==="duotone",L=a.prefix==="fad"||a.prefix==="fa-duotone";if(!f&&(z||r||L)&&(a.prefix="fad"),(l.includes("fa-brands")||l.includes("fab"))&&(a.prefix="fab"),!a.prefix&&N4.includes(s)&&(Object.keys(n).find(m=>b4.includes(m))||o.autoFetchSvg)){let m=A3.get(s).defaultShortPrefixId;a.prefix=m,a.iconName=D(a.prefix,a.iconName)||a.iconName}return(a.prefix==="fa"||e==="fa")&&(a.prefix=T()||"fas"),a}function k4(c,l){let{mixoutsTo:s}=l;return c1=c,U={},Object.keys(I).forEach(a=>{w4.indexOf(a)===-1&&delete I[a]}),c1.forEach(a=>{let e=a.mixout?a.mixout():{};if(Object.keys(e).forEach(n=>{typeof e[n]=="function"&&(s[n]=e[n]),typeof e[n]=="object"&&Object.keys(e[n]).forEach(o=>{s[n]||(s[n]={}),s[n][o]=e[n][o]})}),a.hooks){let n=a.hooks();Object.keys(n).forEach(o=>{U[o]||(U[o]=[]),U[o].push(n[o])})}a.provides&&a.provides(I)}),s}function b2(c,l){for(var s=arguments.length,a=new Array(s>2?s-2:0),e=2;e<s;e++)a[e-2]=arguments[e];return(U[c]||[]).forEach(o=>{l=o.apply(null,[l,...a])}),l}function E(c){for(var l=arguments.length,s=new Array(l>1?l-1:0),a=1;a<l;a++)s[a-1]=arguments[a];(U[c]||[]).forEach(n=>{n.apply(null,s)})}function F(){let c=arguments[0],l=Array.prototype.slice.call(arguments,1);return I[c]?I[c].apply(null,l):void 0}function S2(c){c.prefix==="fa"&&(c.prefix="fas");let{iconName:l}=c,s=c.prefix||T();if(l)return l=D(s,l)||l,$2(W1.definitions,s,l)||$2(b.styles,s,l)}function o2(c,l){return Object.defineProperty(c,"abstract",{get:l}),Object.defineProperty(c,"html",{get:function(){return c.abstract.map(s=>K(s))}}),Object.defineProperty(c,"node",{get:function(){if(!A)return;let s=p.createElement("div");return s.innerHTML=c.html,s.children}}),c}function T4(c){let{children:l,main:s,mask:a,attributes:e,styles:n,transform:o}=c;if(R2(o)&&s.found&&!a.found){let{width:f,height:z}=s,r={x:f/z/2,y:.5};e.style=a2(i(i({},n),{},{"transform-origin":"".concat(r.x+o.x/16,"em ").concat(r.y+o.y/16,"em")}))}return[{tag:"svg",attributes:e,children:l}]}function F4(c){let{prefix:l,iconName:s,children:a,attributes:e,symbol:n}=c,o=n===!0?"".concat(l,"-").concat(t.cssPrefix,"-").concat(s):n;return[{tag:"svg",attributes:{style:"display: none;"},children:[{tag:"symbol",attributes:i(i({},e),{},{id:o}),children:a}]}]}function O2(c){let{icons:{main:l,mask:s},prefix:a,iconName:e,transform:n,symbol:o,title:f,maskId:z,titleId:r,extra:L,watchable:M=!1}=c,{width:m,height:u}=s.found?s:l,y=F3.includes(a),B=[t.replacementClass,e?"".concat(t.cssPrefix,"-").concat(e):""].filter(O=>L.classes.indexOf(O)===-1).filter(O=>O!==""||!!O).concat(L.classes).join(" "),h={children:[],attributes:i(i({},L.attributes),{},{"data-prefix":a,"data-icon":e,class:B,role:L.attributes.role||"img",xmlns:"http://www.w3.org/2000/svg",viewBox:"0 0 ".concat(m," ").concat(u)})},S=y&&!~L.classes.indexOf("fa-fw")?{width:"".concat(m/u*16*.0625,"em")}:{};M&&(h.attributes[R]=""),f&&(h.children.push({tag:"title",attributes:{id:h.attributes["aria-labelledby"]||"title-".concat(r||j())},children:[f]}),delete h.attributes.title);let d=i(i({},h),{},{prefix:a,iconName:e,main:l,mask:s,maskId:z,transform:n,symbol:o,styles:i(i({},S),L.styles)}),{children:g,attributes:H}=s.found&&l.found?F("generateAbstractMask",d)||{children:[],attributes:{}}:F("generateAbstractIcon",d)||{children:[],attributes:{}};return d.children=g,d.attributes=H,o?F4(d):T4(d)}function l1(c){let{content:l,width:s,height:a,transform:e,title:n,extra:o,watchable:f=!1}=c,z=i(i(i({},o.attributes),n?{title:n}:{}),{},{class:o.classes.join(" ")});f&&(z[R]="");let r=i({},o.styles);R2(e)&&(r.transform=o4({transform:e,startCentered:!0,width:s,height:a}),r["-webkit-transform"]=r.transform);let L=a2(r);L.length>0&&(z.style=L);let M=[];return M.push({tag:"span",attributes:z,children:[l]}),n&&M.push({tag:"span",attributes:{class:"sr-only"},children:[n]}),M}function B4(c){let{content:l,title:s,extra:a}=c,e=i(i(i({},a.attributes),s?{title:s}:{}),{},{class:a.classes.join(" ")}),n=a2(a.styles);n.length>0&&(e.style=n);let o=[];return o.push({tag:"span",attributes:e,children:[l]}),s&&o.push({tag:"span",attributes:{class:"sr-only"},children:[s]}),o}function w2(c){let l=c[0],s=c[1],[a]=c.slice(4),e=null;return Array.isArray(a)?e={tag:"g",attributes:{class:"".concat(t.cssPrefix,"-").concat(f2.GROUP)},children:[{tag:"path",attributes:{class:"".concat(t.cssPrefix,"-").concat(f2.SECONDARY),fill:"currentColor",d:a[0]}},{tag:"path",attributes:{class:"".concat(t.cssPrefix,"-").concat(f2.PRIMARY),fill:"currentColor",d:a[1]}}]}:e={tag:"path",attributes:{fill:"currentColor",d:a}},{found:!0,width:l,height:s,icon:e}}function R4(c,l){!w1&&!t.showMissingIcons&&c&&console.error('Icon with name "'.concat(c,'" and prefix "').concat(l,'" is missing.'))}function k2(c,l){let s=l;return l==="fa"&&t.styleDefault!==null&&(l=T()),new Promise((a,e)=>{if(s==="fa"){let n=I1(c)||{};c=n.iconName||c,l=n.prefix||l}if(c&&l&&z2[l]&&z2[l][c]){let n=z2[l][c];return a(w2(n))}R4(c,l),a(i(i({},D4),{},{icon:t.showMissingIcons&&c?F("missingIconAbstract")||{}:{}}))})}function a1(c){return typeof(c.getAttribute?c.getAttribute(R):null)=="string"}function H4(c){let l=c.getAttribute?c.getAttribute(T2):null,s=c.getAttribute?c.getAttribute(F2):null;return l&&s}function O4(c){return c&&c.classList&&c.classList.contains&&c.classList.contains(t.replacementClass)}function U4(){return t.autoReplaceSvg===!0?Z.replace:Z[t.autoReplaceSvg]||Z.replace}function I4(c){return p.createElementNS("http://www.w3.org/2000/svg",c)}function q4(c){return p.createElement(c)}function _1(c){let l=arguments.length>1&&arguments[1]!==void 0?arguments[1]:{},{ceFn:s=c.tag==="svg"?I4:q4}=l;if(typeof c=="string")return p.createTextNode(c);let a=s(c.tag);return Object.keys(c.attributes||[]).forEach(function(n){a.setAttribute(n,c.attributes[n])}),(c.children||[]).forEach(function(n){a.appendChild(_1(n,{ceFn:s}))}),a}function W4(c){let l=" ".concat(c.outerHTML," ");return l="".concat(l,"Font Awesome fontawesome.com "),l}function e1(c){c()}function V1(c,l){let s=typeof l=="function"?l:J;if(c.length===0)s();else{let a=e1;t.mutateApproach===V3&&(a=P.requestAnimationFrame||e1),a(()=>{let e=U4(),n=U2.begin("mutate");c.map(e),n(),s()})}}function j1(){I2=!0}function y2(){I2=!1}function n1(c){if(!V2||!t.observeMutations)return;let{treeCallback:l=J,nodeCallback:s=J,pseudoElementsCallback:a=J,observeMutationsRoot:e=p}=c;l2=new V2(n=>{if(I2)return;let o=T();W(n).forEach(f=>{if(f.type==="childList"&&f.addedNodes.length>0&&!a1(f.addedNodes[0])&&(t.searchPseudoElements&&a(f.target),l(f.target)),f.type==="attributes"&&f.target.parentNode&&t.searchPseudoElements&&a(f.target.parentNode),f.type==="attributes"&&a1(f.target)&&~$3.indexOf(f.attributeName))if(f.attributeName==="class"&&H4(f.target)){let{prefix:z,iconName:r}=n2(D2(f.target));f.target.setAttribute(T2,z||o),r&&f.target.setAttribute(F2,r)}else O4(f.target)&&s(f.target)})}),A&&l2.observe(e,{childList:!0,attributes:!0,characterData:!0,subtree:!0})}function G4(){l2&&l2.disconnect()}function _4(c){let l=c.getAttribute("style"),s=[];return l&&(s=l.split(";").reduce((a,e)=>{let n=e.split(":"),o=n[0],f=n.slice(1);return o&&f.length>0&&(a[o]=f.join(":").trim()),a},{})),s}function V4(c){let l=c.getAttribute("data-prefix"),s=c.getAttribute("data-icon"),a=c.innerText!==void 0?c.innerText.trim():"",e=n2(D2(c));return e.prefix||(e.prefix=T()),l&&s&&(e.prefix=l,e.iconName=s),e.iconName&&e.prefix||(e.prefix&&a.length>0&&(e.iconName=u4(e.prefix,c.innerText)||H2(e.prefix,h2(c.innerText))),!e.iconName&&t.autoFetchSvg&&c.firstChild&&c.firstChild.nodeType===Node.TEXT_NODE&&(e.iconName=c.firstChild.data)),e}function j4(c){let l=W(c.attributes).reduce((e,n)=>(e.name!=="class"&&e.name!=="style"&&(e[n.name]=n.value),e),{}),s=c.getAttribute("title"),a=c.getAttribute("data-fa-title-id");return t.autoA11y&&(s?l["aria-labelledby"]="".concat(t.replacementClass,"-title-").concat(a||j()):(l["aria-hidden"]="true",l.focusable="false")),l}function Y4(){return{iconName:null,title:null,titleId:null,prefix:null,transform:N,symbol:!1,mask:{iconName:null,prefix:null,rest:[]},maskId:null,extra:{classes:[],styles:{},attributes:{}}}}function o1(c){let l=arguments.length>1&&arguments[1]!==void 0?arguments[1]:{styleParser:!0},{iconName:s,prefix:a,rest:e}=V4(c),n=j4(c),o=b2("parseNodeAttributes",{},c),f=l.styleParser?_4(c):[];return i({iconName:s,title:c.getAttribute("title"),titleId:c.getAttribute("data-fa-title-id"),prefix:a,transform:N,mask:{iconName:null,prefix:null,rest:[]},maskId:null,symbol:!1,extra:{classes:e,styles:f,attributes:n}},o)}function Y1(c){let l=t.autoReplaceSvg==="nest"?o1(c,{styleParser:!1}):o1(c);return~l.extra.classes.indexOf(A1)?F("generateLayersText",c,l):F("generateSvgReplacementMutation",c,l)}function K4(){return[...v3,...M2]}function i1(c){let l=arguments.length>1&&arguments[1]!==void 0?arguments[1]:null;if(!A)return Promise.resolve();let s=p.documentElement.classList,a=L=>s.add("".concat(X2,"-").concat(L)),e=L=>s.remove("".concat(X2,"-").concat(L)),n=t.autoFetchSvg?K4():h1.concat(Object.keys(X4));n.includes("fa")||n.push("fa");let o=[".".concat(A1,":not([").concat(R,"])")].concat(n.map(L=>".".concat(L,":not([").concat(R,"])"))).join(", ");if(o.length===0)return Promise.resolve();let f=[];try{f=W(c.querySelectorAll(o))}catch{}if(f.length>0)a("pending"),e("complete");else return Promise.resolve();let z=U2.begin("onTree"),r=f.reduce((L,M)=>{try{let m=Y1(M);m&&L.push(m)}catch(m){w1||m.name==="MissingIcon"&&console.error(m)}return L},[]);return new Promise((L,M)=>{Promise.all(r).then(m=>{V1(m,()=>{a("active"),a("complete"),e("pending"),typeof l=="function"&&l(),z(),L()})}).catch(m=>{z(),M(m)})})}function Q4(c){let l=arguments.length>1&&arguments[1]!==void 0?arguments[1]:null;Y1(c).then(s=>{s&&V1([s],l)})}function $4(c){return function(l){let s=arguments.length>1&&arguments[1]!==void 0?arguments[1]:{},a=(l||{}).icon?l:S2(l||{}),{mask:e}=s;return e&&(e=(e||{}).icon?e:S2(e||{})),c(a,i(i({},s),{},{mask:e}))}}function n0(c){let l=c.replace(a0,""),s=L4(l,0),a=s>=f1[0]&&s<=f1[1],e=l.length===2?l[0]===l[1]:!1;return{value:h2(e?l[0]:l),isSecondary:a||e}}function o0(c,l){let s=c.replace(/^['"]|['"]$/g,"").toLowerCase(),a=parseInt(l),e=isNaN(a)?"normal":a;return(v2[s]||{})[e]||e0[s]}function r1(c,l){let s="".concat(_3).concat(l.replace(":","-"));return new Promise((a,e)=>{if(c.getAttribute(s)!==null)return a();let o=W(c.children).filter(m=>m.getAttribute(C2)===l)[0],f=P.getComputedStyle(c,l),z=f.getPropertyValue("font-family"),r=z.match(K3),L=f.getPropertyValue("font-weight"),M=f.getPropertyValue("content");if(o&&!r)return c.removeChild(o),a();if(r&&M!=="none"&&M!==""){let m=f.getPropertyValue("content"),u=o0(z,L),{value:y,isSecondary:B}=n0(m),h=r[0].startsWith("FontAwesome"),S=H2(u,y),d=S;if(h){let g=d4(y);g.iconName&&g.prefix&&(S=g.iconName,u=g.prefix)}if(S&&!B&&(!o||o.getAttribute(T2)!==u||o.getAttribute(F2)!==d)){c.setAttribute(s,d),o&&c.removeChild(o);let g=Y4(),{extra:H}=g;H.attributes[C2]=l,k2(S,u).then(O=>{let M3=O2(i(i({},g),{},{icons:{main:O,mask:q1()},prefix:u,iconName:d,extra:H,watchable:!0})),i2=p.createElementNS("http://www.w3.org/2000/svg","svg");l==="::before"?c.insertBefore(i2,c.firstChild):c.appendChild(i2),i2.outerHTML=M3.map(p3=>K(p3)).join(`
`),c.removeAttribute(s),a()}).catch(e)}else a()}else a()})}function i0(c){return Promise.all([r1(c,"::before"),r1(c,"::after")])}function f0(c){return c.parentNode!==document.head&&!~j3.indexOf(c.tagName.toUpperCase())&&!c.getAttribute(C2)&&(!c.parentNode||c.parentNode.tagName!=="svg")}function z1(c){if(A)return new Promise((l,s)=>{let a=W(c.querySelectorAll("*")).filter(f0).map(i0),e=U2.begin("searchPseudoElements");j1(),Promise.all(a).then(()=>{e(),y2(),l()}).catch(()=>{e(),y2(),s()})})}function M1(c){let l=arguments.length>1&&arguments[1]!==void 0?arguments[1]:!0;return c.attributes&&(c.attributes.fill||l)&&(c.attributes.fill="black"),c}function L0(c){return c.tag==="g"?c.children:[c]}var G2,P2,p1,C1,u1,_2,P,p,V2,Q,x0,A,d1,h3,g3,x1,N3,h1,C,s2,b3,S3,g1,w3,k3,A3,y3,v3,j2,P3,T3,F3,B3,Y2,$,D3,R3,E3,H3,O3,m2,U3,M2,I3,N1,q3,W3,G3,w,p2,b1,S1,R,C2,_3,T2,F2,X2,V3,j3,w1,k1,Y3,u2,K2,d2,B2,x2,h0,X3,A1,K3,Q3,g0,$3,f2,J3,_,y1,q,t,V,v,N,a4,i4,Q2,f4,k,b,T1,F1,c2,r4,r2,Y,m4,B1,M4,E2,D1,R1,E1,H1,O1,U1,q1,N4,b4,N2,c1,U,I,w4,W1,A4,y4,v4,x,P4,z2,D4,s1,A2,G,E4,G1,U2,J,Z,I2,l2,X4,J4,Z4,c0,l0,s0,a0,f1,t1,v2,e0,t0,L1,r0,m1,z0,L2,m0,M0,p0,C0,N0,b0,X1,K1,S0,w0,k0,A0,y0,v0,P0,Q1=q2(()=>{/*!
 * Font Awesome Free 6.7.2 by @fontawesome - https://fontawesome.com
 * License - https://fontawesome.com/license/free (Icons: CC BY 4.0, Fonts: SIL OFL 1.1, Code: MIT License)
 * Copyright 2024 Fonticons, Inc.
 */G2=()=>{},P2={},p1={},C1=null,u1={mark:G2,measure:G2};try{typeof window<"u"&&(P2=window),typeof document<"u"&&(p1=document),typeof MutationObserver<"u"&&(C1=MutationObserver),typeof performance<"u"&&(u1=performance)}catch{}({userAgent:_2=""}=P2.navigator||{}),P=P2,p=p1,V2=C1,Q=u1,x0=!!P.document,A=!!p.documentElement&&!!p.head&&typeof p.addEventListener=="function"&&typeof p.createElement=="function",d1=~_2.indexOf("MSIE")||~_2.indexOf("Trident/"),h3=/fa(s|r|l|t|d|dr|dl|dt|b|k|kd|ss|sr|sl|st|sds|sdr|sdl|sdt)?[\-\ ]/,g3=/Font ?Awesome ?([56 ]*)(Solid|Regular|Light|Thin|Duotone|Brands|Free|Pro|Sharp Duotone|Sharp|Kit)?.*/i,x1={classic:{fa:"solid",fas:"solid","fa-solid":"solid",far:"regular","fa-regular":"regular",fal:"light","fa-light":"light",fat:"thin","fa-thin":"thin",fab:"brands","fa-brands":"brands"},duotone:{fa:"solid",fad:"solid","fa-solid":"solid","fa-duotone":"solid",fadr:"regular","fa-regular":"regular",fadl:"light","fa-light":"light",fadt:"thin","fa-thin":"thin"},sharp:{fa:"solid",fass:"solid","fa-solid":"solid",fasr:"regular","fa-regular":"regular",fasl:"light","fa-light":"light",fast:"thin","fa-thin":"thin"},"sharp-duotone":{fa:"solid",fasds:"solid","fa-solid":"solid",fasdr:"regular","fa-regular":"regular",fasdl:"light","fa-light":"light",fasdt:"thin","fa-thin":"thin"}},N3={GROUP:"duotone-group",SWAP_OPACITY:"swap-opacity",PRIMARY:"primary",SECONDARY:"secondary"},h1=["fa-classic","fa-duotone","fa-sharp","fa-sharp-duotone"],C="classic",s2="duotone",b3="sharp",S3="sharp-duotone",g1=[C,s2,b3,S3],w3={classic:{900:"fas",400:"far",normal:"far",300:"fal",100:"fat"},duotone:{900:"fad",400:"fadr",300:"fadl",100:"fadt"},sharp:{900:"fass",400:"fasr",300:"fasl",100:"fast"},"sharp-duotone":{900:"fasds",400:"fasdr",300:"fasdl",100:"fasdt"}},k3={"Font Awesome 6 Free":{900:"fas",400:"far"},"Font Awesome 6 Pro":{900:"fas",400:"far",normal:"far",300:"fal",100:"fat"},"Font Awesome 6 Brands":{400:"fab",normal:"fab"},"Font Awesome 6 Duotone":{900:"fad",400:"fadr",normal:"fadr",300:"fadl",100:"fadt"},"Font Awesome 6 Sharp":{900:"fass",400:"fasr",normal:"fasr",300:"fasl",100:"fast"},"Font Awesome 6 Sharp Duotone":{900:"fasds",400:"fasdr",normal:"fasdr",300:"fasdl",100:"fasdt"}},A3=new Map([["classic",{defaultShortPrefixId:"fas",defaultStyleId:"solid",styleIds:["solid","regular","light","thin","brands"],futureStyleIds:[],defaultFontWeight:900}],["sharp",{defaultShortPrefixId:"fass",defaultStyleId:"solid",styleIds:["solid","regular","light","thin"],futureStyleIds:[],defaultFontWeight:900}],["duotone",{defaultShortPrefixId:"fad",defaultStyleId:"solid",styleIds:["solid","regular","light","thin"],futureStyleIds:[],defaultFontWeight:900}],["sharp-duotone",{defaultShortPrefixId:"fasds",defaultStyleId:"solid",styleIds:["solid","regular","light","thin"],futureStyleIds:[],defaultFontWeight:900}]]),y3={classic:{solid:"fas",regular:"far",light:"fal",thin:"fat",brands:"fab"},duotone:{solid:"fad",regular:"fadr",light:"fadl",thin:"fadt"},sharp:{solid:"fass",regular:"fasr",light:"fasl",thin:"fast"},"sharp-duotone":{solid:"fasds",regular:"fasdr",light:"fasdl",thin:"fasdt"}},v3=["fak","fa-kit","fakd","fa-kit-duotone"],j2={kit:{fak:"kit","fa-kit":"kit"},"kit-duotone":{fakd:"kit-duotone","fa-kit-duotone":"kit-duotone"}},P3=["kit"],T3={kit:{"fa-kit":"fak"},"kit-duotone":{"fa-kit-duotone":"fakd"}},F3=["fak","fakd"],B3={kit:{fak:"fa-kit"},"kit-duotone":{fakd:"fa-kit-duotone"}},Y2={kit:{kit:"fak"},"kit-duotone":{"kit-duotone":"fakd"}},$={GROUP:"duotone-group",SWAP_OPACITY:"swap-opacity",PRIMARY:"primary",SECONDARY:"secondary"},D3=["fa-classic","fa-duotone","fa-sharp","fa-sharp-duotone"],R3=["fak","fa-kit","fakd","fa-kit-duotone"],E3={"Font Awesome Kit":{400:"fak",normal:"fak"},"Font Awesome Kit Duotone":{400:"fakd",normal:"fakd"}},H3={classic:{"fa-brands":"fab","fa-duotone":"fad","fa-light":"fal","fa-regular":"far","fa-solid":"fas","fa-thin":"fat"},duotone:{"fa-regular":"fadr","fa-light":"fadl","fa-thin":"fadt"},sharp:{"fa-solid":"fass","fa-regular":"fasr","fa-light":"fasl","fa-thin":"fast"},"sharp-duotone":{"fa-solid":"fasds","fa-regular":"fasdr","fa-light":"fasdl","fa-thin":"fasdt"}},O3={classic:["fas","far","fal","fat","fad"],duotone:["fadr","fadl","fadt"],sharp:["fass","fasr","fasl","fast"],"sharp-duotone":["fasds","fasdr","fasdl","fasdt"]},m2={classic:{fab:"fa-brands",fad:"fa-duotone",fal:"fa-light",far:"fa-regular",fas:"fa-solid",fat:"fa-thin"},duotone:{fadr:"fa-regular",fadl:"fa-light",fadt:"fa-thin"},sharp:{fass:"fa-solid",fasr:"fa-regular",fasl:"fa-light",fast:"fa-thin"},"sharp-duotone":{fasds:"fa-solid",fasdr:"fa-regular",fasdl:"fa-light",fasdt:"fa-thin"}},U3=["fa-solid","fa-regular","fa-light","fa-thin","fa-duotone","fa-brands"],M2=["fa","fas","far","fal","fat","fad","fadr","fadl","fadt","fab","fass","fasr","fasl","fast","fasds","fasdr","fasdl","fasdt",...D3,...U3],I3=["solid","regular","light","thin","duotone","brands"],N1=[1,2,3,4,5,6,7,8,9,10],q3=N1.concat([11,12,13,14,15,16,17,18,19,20]),W3=[...Object.keys(O3),...I3,"2xs","xs","sm","lg","xl","2xl","beat","border","fade","beat-fade","bounce","flip-both","flip-horizontal","flip-vertical","flip","fw","inverse","layers-counter","layers-text","layers","li","pull-left","pull-right","pulse","rotate-180","rotate-270","rotate-90","rotate-by","shake","spin-pulse","spin-reverse","spin","stack-1x","stack-2x","stack","ul",$.GROUP,$.SWAP_OPACITY,$.PRIMARY,$.SECONDARY].concat(N1.map(c=>"".concat(c,"x"))).concat(q3.map(c=>"w-".concat(c))),G3={"Font Awesome 5 Free":{900:"fas",400:"far"},"Font Awesome 5 Pro":{900:"fas",400:"far",normal:"far",300:"fal"},"Font Awesome 5 Brands":{400:"fab",normal:"fab"},"Font Awesome 5 Duotone":{900:"fad"}},w="___FONT_AWESOME___",p2=16,b1="fa",S1="svg-inline--fa",R="data-fa-i2svg",C2="data-fa-pseudo-element",_3="data-fa-pseudo-element-pending",T2="data-prefix",F2="data-icon",X2="fontawesome-i2svg",V3="async",j3=["HTML","HEAD","STYLE","SCRIPT"],w1=(()=>{try{return!0}catch{return!1}})();k1=i({},x1);k1[C]=i(i(i(i({},{"fa-duotone":"duotone"}),x1[C]),j2.kit),j2["kit-duotone"]);Y3=X(k1),u2=i({},y3);u2[C]=i(i(i(i({},{duotone:"fad"}),u2[C]),Y2.kit),Y2["kit-duotone"]);K2=X(u2),d2=i({},m2);d2[C]=i(i({},d2[C]),B3.kit);B2=X(d2),x2=i({},H3);x2[C]=i(i({},x2[C]),T3.kit);h0=X(x2),X3=h3,A1="fa-layers-text",K3=g3,Q3=i({},w3),g0=X(Q3),$3=["class","data-prefix","data-icon","data-fa-transform","data-fa-mask"],f2=N3,J3=[...P3,...W3],_=P.FontAwesomeConfig||{};p&&typeof p.querySelector=="function"&&[["data-family-prefix","familyPrefix"],["data-css-prefix","cssPrefix"],["data-family-default","familyDefault"],["data-style-default","styleDefault"],["data-replacement-class","replacementClass"],["data-auto-replace-svg","autoReplaceSvg"],["data-auto-add-css","autoAddCss"],["data-auto-a11y","autoA11y"],["data-search-pseudo-elements","searchPseudoElements"],["data-observe-mutations","observeMutations"],["data-mutate-approach","mutateApproach"],["data-keep-original-source","keepOriginalSource"],["data-measure-performance","measurePerformance"],["data-show-missing-icons","showMissingIcons"]].forEach(l=>{let[s,a]=l,e=c4(Z3(s));e!=null&&(_[a]=e)});y1={styleDefault:"solid",familyDefault:C,cssPrefix:b1,replacementClass:S1,autoReplaceSvg:!0,autoAddCss:!0,autoA11y:!0,searchPseudoElements:!1,observeMutations:!0,mutateApproach:"async",keepOriginalSource:!0,measurePerformance:!1,showMissingIcons:!0};_.familyPrefix&&(_.cssPrefix=_.familyPrefix);q=i(i({},y1),_);q.autoReplaceSvg||(q.observeMutations=!1);t={};Object.keys(y1).forEach(c=>{Object.defineProperty(t,c,{enumerable:!0,set:function(l){q[c]=l,V.forEach(s=>s(t))},get:function(){return q[c]}})});Object.defineProperty(t,"familyPrefix",{enumerable:!0,set:function(c){q.cssPrefix=c,V.forEach(l=>l(t))},get:function(){return q.cssPrefix}});P.FontAwesomeConfig=t;V=[];v=p2,N={size:16,x:0,y:0,rotate:0,flipX:!1,flipY:!1};a4="0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";i4=`:root, :host {
  --fa-font-solid: normal 900 1em/1 "Font Awesome 6 Free";
  --fa-font-regular: normal 400 1em/1 "Font Awesome 6 Free";
  --fa-font-light: normal 300 1em/1 "Font Awesome 6 Pro";
  --fa-font-thin: normal 100 1em/1 "Font Awesome 6 Pro";
  --fa-font-duotone: normal 900 1em/1 "Font Awesome 6 Duotone";
  --fa-font-duotone-regular: normal 400 1em/1 "Font Awesome 6 Duotone";
  --fa-font-duotone-light: normal 300 1em/1 "Font Awesome 6 Duotone";
  --fa-font-duotone-thin: normal 100 1em/1 "Font Awesome 6 Duotone";
  --fa-font-brands: normal 400 1em/1 "Font Awesome 6 Brands";
  --fa-font-sharp-solid: normal 900 1em/1 "Font Awesome 6 Sharp";
  --fa-font-sharp-regular: normal 400 1em/1 "Font Awesome 6 Sharp";
  --fa-font-sharp-light: normal 300 1em/1 "Font Awesome 6 Sharp";
  --fa-font-sharp-thin: normal 100 1em/1 "Font Awesome 6 Sharp";
  --fa-font-sharp-duotone-solid: normal 900 1em/1 "Font Awesome 6 Sharp Duotone";
  --fa-font-sharp-duotone-regular: normal 400 1em/1 "Font Awesome 6 Sharp Duotone";
  --fa-font-sharp-duotone-light: normal 300 1em/1 "Font Awesome 6 Sharp Duotone";
  --fa-font-sharp-duotone-thin: normal 100 1em/1 "Font Awesome 6 Sharp Duotone";
}

svg:not(:root).svg-inline--fa, svg:not(:host).svg-inline--fa {
  overflow: visible;
  box-sizing: content-box;
}

.svg-inline--fa {
  display: var(--fa-display, inline-block);
  height: 1em;
  overflow: visible;
  vertical-align: -0.125em;
}
.svg-inline--fa.fa-2xs {
  vertical-align: 0.1em;
}
.svg-inline--fa.fa-xs {
  vertical-align: 0em;
}
.svg-inline--fa.fa-sm {
  vertical-align: -0.0714285705em;
}
.svg-inline--fa.fa-lg {
  vertical-align: -0.2em;
}
.svg-inline--fa.fa-xl {
  vertical-align: -0.25em;
}
.svg-inline--fa.fa-2xl {
  vertical-align: -0.3125em;
}
.svg-inline--fa.fa-pull-left {
  margin-right: var(--fa-pull-margin, 0.3em);
  width: auto;
}
.svg-inline--fa.fa-pull-right {
  margin-left: var(--fa-pull-margin, 0.3em);
  width: auto;
}
.svg-inline--fa.fa-li {
  width: var(--fa-li-width, 2em);
  top: 0.25em;
}
.svg-inline--fa.fa-fw {
  width: var(--fa-fw-width, 1.25em);
}

.fa-layers svg.svg-inline--fa {
  bottom: 0;
  left: 0;
  margin: auto;
  position: absolute;
  right: 0;
  top: 0;
}

.fa-layers-counter, .fa-layers-text {
  display: inline-block;
  position: absolute;
  text-align: center;
}

.fa-layers {
  display: inline-block;
  height: 1em;
  position: relative;
  text-align: center;
  vertical-align: -0.125em;
  width: 1em;
}
.fa-layers svg.svg-inline--fa {
  transform-origin: center center;
}

.fa-layers-text {
  left: 50%;
  top: 50%;
  transform: translate(-50%, -50%);
  transform-origin: center center;
}

.fa-layers-counter {
  background-color: var(--fa-counter-background-color, #ff253a);
  border-radius: var(--fa-counter-border-radius, 1em);
  box-sizing: border-box;
  color: var(--fa-inverse, #fff);
  line-height: var(--fa-counter-line-height, 1);
  max-width: var(--fa-counter-max-width, 5em);
  min-width: var(--fa-counter-min-width, 1.5em);
  overflow: hidden;
  padding: var(--fa-counter-padding, 0.25em 0.5em);
  right: var(--fa-right, 0);
  text-overflow: ellipsis;
  top: var(--fa-top, 0);
  transform: scale(var(--fa-counter-scale, 0.25));
  transform-origin: top right;
}

.fa-layers-bottom-right {
  bottom: var(--fa-bottom, 0);
  right: var(--fa-right, 0);
  top: auto;
  transform: scale(var(--fa-layers-scale, 0.25));
  transform-origin: bottom right;
}

.fa-layers-bottom-left {
  bottom: var(--fa-bottom, 0);
  left: var(--fa-left, 0);
  right: auto;
  top: auto;
  transform: scale(var(--fa-layers-scale, 0.25));
  transform-origin: bottom left;
}

.fa-layers-top-right {
  top: var(--fa-top, 0);
  right: var(--fa-right, 0);
  transform: scale(var(--fa-layers-scale, 0.25));
  transform-origin: top right;
}

.fa-layers-top-left {
  left: var(--fa-left, 0);
  right: auto;
  top: var(--fa-top, 0);
  transform: scale(var(--fa-layers-scale, 0.25));
  transform-origin: top left;
}

.fa-1x {
  font-size: 1em;
}

.fa-2x {
  font-size: 2em;
}

.fa-3x {
  font-size: 3em;
}

.fa-4x {
  font-size: 4em;
}

.fa-5x {
  font-size: 5em;
}

.fa-6x {
  font-size: 6em;
}

.fa-7x {
  font-size: 7em;
}

.fa-8x {
  font-size: 8em;
}

.fa-9x {
  font-size: 9em;
}

.fa-10x {
  font-size: 10em;
}

.fa-2xs {
  font-size: 0.625em;
  line-height: 0.1em;
  vertical-align: 0.225em;
}

.fa-xs {
  font-size: 0.75em;
  line-height: 0.0833333337em;
  vertical-align: 0.125em;
}

.fa-sm {
  font-size: 0.875em;
  line-height: 0.0714285718em;
  vertical-align: 0.0535714295em;
}

.fa-lg {
  font-size: 1.25em;
  line-height: 0.05em;
  vertical-align: -0.075em;
}

.fa-xl {
  font-size: 1.5em;
  line-height: 0.0416666682em;
  vertical-align: -0.125em;
}

.fa-2xl {
  font-size: 2em;
  line-height: 0.03125em;
  vertical-align: -0.1875em;
}

.fa-fw {
  text-align: center;
  width: 1.25em;
}

.fa-ul {
  list-style-type: none;
  margin-left: var(--fa-li-margin, 2.5em);
  padding-left: 0;
}
.fa-ul > li {
  position: relative;
}

.fa-li {
  left: calc(-1 * var(--fa-li-width, 2em));
  position: absolute;
  text-align: center;
  width: var(--fa-li-width, 2em);
  line-height: inherit;
}

.fa-border {
  border-color: var(--fa-border-color, #eee);
  border-radius: var(--fa-border-radius, 0.1em);
  border-style: var(--fa-border-style, solid);
  border-width: var(--fa-border-width, 0.08em);
  padding: var(--fa-border-padding, 0.2em 0.25em 0.15em);
}

.fa-pull-left {
  float: left;
  margin-right: var(--fa-pull-margin, 0.3em);
}

.fa-pull-right {
  float: right;
  margin-left: var(--fa-pull-margin, 0.3em);
}

.fa-beat {
  animation-name: fa-beat;
  animation-delay: var(--fa-animation-delay, 0s);
  animation-direction: var(--fa-animation-direction, normal);
  animation-duration: var(--fa-animation-duration, 1s);
  animation-iteration-count: var(--fa-animation-iteration-count, infinite);
  animation-timing-function: var(--fa-animation-timing, ease-in-out);
}

.fa-bounce {
  animation-name: fa-bounce;
  animation-delay: var(--fa-animation-delay, 0s);
  animation-direction: var(--fa-animation-direction, normal);
  animation-duration: var(--fa-animation-duration, 1s);
  animation-iteration-count: var(--fa-animation-iteration-count, infinite);
  animation-timing-function: var(--fa-animation-timing, cubic-bezier(0.28, 0.84, 0.42, 1));
}

.fa-fade {
  animation-name: fa-fade;
  animation-delay: var(--fa-animation-delay, 0s);
  animation-direction: var(--fa-animation-direction, normal);
  animation-duration: var(--fa-animation-duration, 1s);
  animation-iteration-count: var(--fa-animation-iteration-count, infinite);
  animation-timing-function: var(--fa-animation-timing, cubic-bezier(0.4, 0, 0.6, 1));
}

.fa-beat-fade {
  animation-name: fa-beat-fade;
  animation-delay: var(--fa-animation-delay, 0s);
  animation-direction: var(--fa-animation-direction, normal);
  animation-duration: var(--fa-animation-duration, 1s);
  animation-iteration-count: var(--fa-animation-iteration-count, infinite);
  animation-timing-function: var(--fa-animation-timing, cubic-bezier(0.4, 0, 0.6, 1));
}

.fa-flip {
  animation-name: fa-flip;
  animation-delay: var(--fa-animation-delay, 0s);
  animation-direction: var(--fa-animation-direction, normal);
  animation-duration: var(--fa-animation-duration, 1s);
  animation-iteration-count: var(--fa-animation-iteration-count, infinite);
  animation-timing-function: var(--fa-animation-timing, ease-in-out);
}

.fa-shake {
  animation-name: fa-shake;
  animation-delay: var(--fa-animation-delay, 0s);
  animation-direction: var(--fa-animation-direction, normal);
  animation-duration: var(--fa-animation-duration, 1s);
  animation-iteration-count: var(--fa-animation-iteration-count, infinite);
  animation-timing-function: var(--fa-animation-timing, linear);
}

.fa-spin {
  animation-name: fa-spin;
  animation-delay: var(--fa-animation-delay, 0s);
  animation-direction: var(--fa-animation-direction, normal);
  animation-duration: var(--fa-animation-duration, 2s);
  animation-iteration-count: var(--fa-animation-iteration-count, infinite);
  animation-timing-function: var(--fa-animation-timing, linear);
}

.fa-spin-reverse {
  --fa-animation-direction: reverse;
}

.fa-pulse,
.fa-spin-pulse {
  animation-name: fa-spin;
  animation-direction: var(--fa-animation-direction, normal);
  animation-duration: var(--fa-animation-duration, 1s);
  animation-iteration-count: var(--fa-animation-iteration-count, infinite);
  animation-timing-function: var(--fa-animation-timing, steps(8));
}

@media (prefers-reduced-motion: reduce) {
  .fa-beat,
.fa-bounce,
.fa-fade,
.fa-beat-fade,
.fa-flip,
.fa-pulse,
.fa-shake,
.fa-spin,
.fa-spin-pulse {
    animation-delay: -1ms;
    animation-duration: 1ms;
    animation-iteration-count: 1;
    transition-delay: 0s;
    transition-duration: 0s;
  }
}
@keyframes fa-beat {
  0%, 90% {
    transform: scale(1);
  }
  45% {
    transform: scale(var(--fa-beat-scale, 1.25));
  }
}
@keyframes fa-bounce {
  0% {
    transform: scale(1, 1) translateY(0);
  }
  10% {
    transform: scale(var(--fa-bounce-start-scale-x, 1.1), var(--fa-bounce-start-scale-y, 0.9)) translateY(0);
  }
  30% {
    transform: scale(var(--fa-bounce-jump-scale-x, 0.9), var(--fa-bounce-jump-scale-y, 1.1)) translateY(var(--fa-bounce-height, -0.5em));
  }
  50% {
    transform: scale(var(--fa-bounce-land-scale-x, 1.05), var(--fa-bounce-land-scale-y, 0.95)) translateY(0);
  }
  57% {
    transform: scale(1, 1) translateY(var(--fa-bounce-rebound, -0.125em));
  }
  64% {
    transform: scale(1, 1) translateY(0);
  }
  100% {
    transform: scale(1, 1) translateY(0);
  }
}
@keyframes fa-fade {
  50% {
    opacity: var(--fa-fade-opacity, 0.4);
  }
}
@keyframes fa-beat-fade {
  0%, 100% {
    opacity: var(--fa-beat-fade-opacity, 0.4);
    transform: scale(1);
  }
  50% {
    opacity: 1;
    transform: scale(var(--fa-beat-fade-scale, 1.125));
  }
}
@keyframes fa-flip {
  50% {
    transform: rotate3d(var(--fa-flip-x, 0), var(--fa-flip-y, 1), var(--fa-flip-z, 0), var(--fa-flip-angle, -180deg));
  }
}
@keyframes fa-shake {
  0% {
    transform: rotate(-15deg);
  }
  4% {
    transform: rotate(15deg);
  }
  8%, 24% {
    transform: rotate(-18deg);
  }
  12%, 28% {
    transform: rotate(18deg);
  }
  16% {
    transform: rotate(-22deg);
  }
  20% {
    transform: rotate(22deg);
  }
  32% {
    transform: rotate(-12deg);
  }
  36% {
    transform: rotate(12deg);
  }
  40%, 100% {
    transform: rotate(0deg);
  }
}
@keyframes fa-spin {
  0% {
    transform: rotate(0deg);
  }
  100% {
    transform: rotate(360deg);
  }
}
.fa-rotate-90 {
  transform: rotate(90deg);
}

.fa-rotate-180 {
  transform: rotate(180deg);
}

.fa-rotate-270 {
  transform: rotate(270deg);
}

.fa-flip-horizontal {
  transform: scale(-1, 1);
}

.fa-flip-vertical {
  transform: scale(1, -1);
}

.fa-flip-both,
.fa-flip-horizontal.fa-flip-vertical {
  transform: scale(-1, -1);
}

.fa-rotate-by {
  transform: rotate(var(--fa-rotate-angle, 0));
}

.fa-stack {
  display: inline-block;
  vertical-align: middle;
  height: 2em;
  position: relative;
  width: 2.5em;
}

.fa-stack-1x,
.fa-stack-2x {
  bottom: 0;
  left: 0;
  margin: auto;
  position: absolute;
  right: 0;
  top: 0;
  z-index: var(--fa-stack-z-index, auto);
}

.svg-inline--fa.fa-stack-1x {
  height: 1em;
  width: 1.25em;
}
.svg-inline--fa.fa-stack-2x {
  height: 2em;
  width: 2.5em;
}

.fa-inverse {
  color: var(--fa-inverse, #fff);
}

.sr-only,
.fa-sr-only {
  position: absolute;
  width: 1px;
  height: 1px;
  padding: 0;
  margin: -1px;
  overflow: hidden;
  clip: rect(0, 0, 0, 0);
  white-space: nowrap;
  border-width: 0;
}

.sr-only-focusable:not(:focus),
.fa-sr-only-focusable:not(:focus) {
  position: absolute;
  width: 1px;
  height: 1px;
  padding: 0;
  margin: -1px;
  overflow: hidden;
  clip: rect(0, 0, 0, 0);
  white-space: nowrap;
  border-width: 0;
}

.svg-inline--fa .fa-primary {
  fill: var(--fa-primary-color, currentColor);
  opacity: var(--fa-primary-opacity, 1);
}

.svg-inline--fa .fa-secondary {
  fill: var(--fa-secondary-color, currentColor);
  opacity: var(--fa-secondary-opacity, 0.4);
}

.svg-inline--fa.fa-swap-opacity .fa-primary {
  opacity: var(--fa-secondary-opacity, 0.4);
}

.svg-inline--fa.fa-swap-opacity .fa-secondary {
  opacity: var(--fa-primary-opacity, 1);
}

.svg-inline--fa mask .fa-primary,
.svg-inline--fa mask .fa-secondary {
  fill: black;
}`;Q2=!1;f4={mixout(){return{dom:{css:P1,insertCss:t2}}},hooks(){return{beforeDOMElementCreation(){t2()},beforeI2svg(){t2()}}}},k=P||{};k[w]||(k[w]={});k[w].styles||(k[w].styles={});k[w].hooks||(k[w].hooks={});k[w].shims||(k[w].shims=[]);b=k[w],T1=[],F1=function(){p.removeEventListener("DOMContentLoaded",F1),c2=1,T1.map(c=>c())},c2=!1;A&&(c2=(p.documentElement.doScroll?/^loaded|^c/:/^loaded|^i|^c/).test(p.readyState),c2||p.addEventListener("DOMContentLoaded",F1));r4=function(l,s){return function(a,e,n,o){return l.call(s,a,e,n,o)}},r2=function(l,s,a,e){var n=Object.keys(l),o=n.length,f=e!==void 0?r4(s,e):s,z,r,L;for(a===void 0?(z=1,L=l[n[0]]):(z=0,L=a);z<o;z++)r=n[z],L=f(L,l[r],r,l);return L};({styles:Y,shims:m4}=b),B1=Object.keys(B2),M4=B1.reduce((c,l)=>(c[l]=Object.keys(B2[l]),c),{}),E2=null,D1={},R1={},E1={},H1={},O1={};U1=()=>{let c=a=>r2(Y,(e,n,o)=>(e[o]=r2(n,a,{}),e),{});D1=c((a,e,n)=>(e[3]&&(a[e[3]]=n),e[2]&&e[2].filter(f=>typeof f=="number").forEach(f=>{a[f.toString(16)]=n}),a)),R1=c((a,e,n)=>(a[n]=n,e[2]&&e[2].filter(f=>typeof f=="string").forEach(f=>{a[f]=n}),a)),O1=c((a,e,n)=>{let o=e[2];return a[n]=n,o.forEach(f=>{a[f]=n}),a});let l="far"in Y||t.autoFetchSvg,s=r2(m4,(a,e)=>{let n=e[0],o=e[1],f=e[2];return o==="far"&&!l&&(o="fas"),typeof n=="string"&&(a.names[n]={prefix:o,iconName:f}),typeof n=="number"&&(a.unicodes[n.toString(16)]={prefix:o,iconName:f}),a},{names:{},unicodes:{}});E1=s.names,H1=s.unicodes,E2=e2(t.styleDefault,{family:t.familyDefault})};l4(c=>{E2=e2(c.styleDefault,{family:t.familyDefault})});U1();q1=()=>({prefix:null,iconName:null,rest:[]});N4=g1.filter(c=>c!==C||c!==s2),b4=Object.keys(m2).filter(c=>c!==C).map(c=>Object.keys(m2[c])).flat();N2=class{constructor(){this.definitions={}}add(){for(var l=arguments.length,s=new Array(l),a=0;a<l;a++)s[a]=arguments[a];let e=s.reduce(this._pullDefinitions,{});Object.keys(e).forEach(n=>{this.definitions[n]=i(i({},this.definitions[n]||{}),e[n]),g2(n,e[n]);let o=B2[C][n];o&&g2(o,e[n]),U1()})}reset(){this.definitions={}}_pullDefinitions(l,s){let a=s.prefix&&s.iconName&&s.icon?{0:s}:s;return Object.keys(a).map(e=>{let{prefix:n,iconName:o,icon:f}=a[e],z=f[2];l[n]||(l[n]={}),z.length>0&&z.forEach(r=>{typeof r=="string"&&(l[n][r]=f)}),l[n][o]=f}),l}},c1=[],U={},I={},w4=Object.keys(I);W1=new N2,A4=()=>{t.autoReplaceSvg=!1,t.observeMutations=!1,E("noAuto")},y4={i2svg:function(){let c=arguments.length>0&&arguments[0]!==void 0?arguments[0]:{};return A?(E("beforeI2svg",c),F("pseudoElements2svg",c),F("i2svg",c)):Promise.reject(new Error("Operation requires a DOM of some kind."))},watch:function(){let c=arguments.length>0&&arguments[0]!==void 0?arguments[0]:{},{autoReplaceSvgRoot:l}=c;t.autoReplaceSvg===!1&&(t.autoReplaceSvg=!0),t.observeMutations=!0,t4(()=>{P4({autoReplaceSvgRoot:l}),E("watch",c)})}},v4={icon:c=>{if(c===null)return null;if(typeof c=="object"&&c.prefix&&c.iconName)return{prefix:c.prefix,iconName:D(c.prefix,c.iconName)||c.iconName};if(Array.isArray(c)&&c.length===2){let l=c[1].indexOf("fa-")===0?c[1].slice(3):c[1],s=e2(c[0]);return{prefix:s,iconName:D(s,l)||l}}if(typeof c=="string"&&(c.indexOf("".concat(t.cssPrefix,"-"))>-1||c.match(X3))){let l=n2(c.split(" "),{skipLookups:!0});return{prefix:l.prefix||T(),iconName:D(l.prefix,l.iconName)||l.iconName}}if(typeof c=="string"){let l=T();return{prefix:l,iconName:D(l,c)||c}}}},x={noAuto:A4,config:t,dom:y4,parse:v4,library:W1,findIconDefinition:S2,toHtml:K},P4=function(){let c=arguments.length>0&&arguments[0]!==void 0?arguments[0]:{},{autoReplaceSvgRoot:l=p}=c;(Object.keys(b.styles).length>0||t.autoFetchSvg)&&A&&t.autoReplaceSvg&&x.dom.i2svg({node:l})};({styles:z2}=b);D4={found:!1,width:512,height:512};s1=()=>{},A2=t.measurePerformance&&Q&&Q.mark&&Q.measure?Q:{mark:s1,measure:s1},G='FA "6.7.2"',E4=c=>(A2.mark("".concat(G," ").concat(c," begins")),()=>G1(c)),G1=c=>{A2.mark("".concat(G," ").concat(c," ends")),A2.measure("".concat(G," ").concat(c),"".concat(G," ").concat(c," begins"),"".concat(G," ").concat(c," ends"))},U2={begin:E4,end:G1},J=()=>{};Z={replace:function(c){let l=c[0];if(l.parentNode)if(c[1].forEach(s=>{l.parentNode.insertBefore(_1(s),l)}),l.getAttribute(R)===null&&t.keepOriginalSource){let s=p.createComment(W4(l));l.parentNode.replaceChild(s,l)}else l.remove()},nest:function(c){let l=c[0],s=c[1];if(~D2(l).indexOf(t.replacementClass))return Z.replace(c);let a=new RegExp("".concat(t.cssPrefix,"-.*"));if(delete s[0].attributes.id,s[0].attributes.class){let n=s[0].attributes.class.split(" ").reduce((o,f)=>(f===t.replacementClass||f.match(a)?o.toSvg.push(f):o.toNode.push(f),o),{toNode:[],toSvg:[]});s[0].attributes.class=n.toSvg.join(" "),n.toNode.length===0?l.removeAttribute("class"):l.setAttribute("class",n.toNode.join(" "))}let e=s.map(n=>K(n)).join(`
`);l.setAttribute(R,""),l.innerHTML=e}};I2=!1;l2=null;({styles:X4}=b);J4=function(c){let l=arguments.length>1&&arguments[1]!==void 0?arguments[1]:{},{transform:s=N,symbol:a=!1,mask:e=null,maskId:n=null,title:o=null,titleId:f=null,classes:z=[],attributes:r={},styles:L={}}=l;if(!c)return;let{prefix:M,iconName:m,icon:u}=c;return o2(i({type:"icon"},c),()=>(E("beforeDOMElementCreation",{iconDefinition:c,params:l}),t.autoA11y&&(o?r["aria-labelledby"]="".concat(t.replacementClass,"-title-").concat(f||j()):(r["aria-hidden"]="true",r.focusable="false")),O2({icons:{main:w2(u),mask:e?w2(e.icon):{found:!1,width:null,height:null,icon:{}}},prefix:M,iconName:m,transform:i(i({},N),s),symbol:a,title:o,maskId:n,titleId:f,extra:{attributes:r,styles:L,classes:z}})))},Z4={mixout(){return{icon:$4(J4)}},hooks(){return{mutationObserverCallbacks(c){return c.treeCallback=i1,c.nodeCallback=Q4,c}}},provides(c){c.i2svg=function(l){let{node:s=p,callback:a=()=>{}}=l;return i1(s,a)},c.generateSvgReplacementMutation=function(l,s){let{iconName:a,title:e,titleId:n,prefix:o,transform:f,symbol:z,mask:r,maskId:L,extra:M}=s;return new Promise((m,u)=>{Promise.all([k2(a,o),r.iconName?k2(r.iconName,r.prefix):Promise.resolve({found:!1,width:512,height:512,icon:{}})]).then(y=>{let[B,h]=y;m([l,O2({icons:{main:B,mask:h},prefix:o,iconName:a,transform:f,symbol:z,maskId:L,title:e,titleId:n,extra:M,watchable:!0})])}).catch(u)})},c.generateAbstractIcon=function(l){let{children:s,attributes:a,main:e,transform:n,styles:o}=l,f=a2(o);f.length>0&&(a.style=f);let z;return R2(n)&&(z=F("generateAbstractTransformGrouping",{main:e,transform:n,containerWidth:e.width,iconWidth:e.width})),s.push(z||e.icon),{children:s,attributes:a}}}},c0={mixout(){return{layer(c){let l=arguments.length>1&&arguments[1]!==void 0?arguments[1]:{},{classes:s=[]}=l;return o2({type:"layer"},()=>{E("beforeDOMElementCreation",{assembler:c,params:l});let a=[];return c(e=>{Array.isArray(e)?e.map(n=>{a=a.concat(n.abstract)}):a=a.concat(e.abstract)}),[{tag:"span",attributes:{class:["".concat(t.cssPrefix,"-layers"),...s].join(" ")},children:a}]})}}}},l0={mixout(){return{counter(c){let l=arguments.length>1&&arguments[1]!==void 0?arguments[1]:{},{title:s=null,classes:a=[],attributes:e={},styles:n={}}=l;return o2({type:"counter",content:c},()=>(E("beforeDOMElementCreation",{content:c,params:l}),B4({content:c.toString(),title:s,extra:{attributes:e,styles:n,classes:["".concat(t.cssPrefix,"-layers-counter"),...a]}})))}}}},s0={mixout(){return{text(c){let l=arguments.length>1&&arguments[1]!==void 0?arguments[1]:{},{transform:s=N,title:a=null,classes:e=[],attributes:n={},styles:o={}}=l;return o2({type:"text",content:c},()=>(E("beforeDOMElementCreation",{content:c,params:l}),l1({content:c,transform:i(i({},N),s),title:a,extra:{attributes:n,styles:o,classes:["".concat(t.cssPrefix,"-layers-text"),...e]}})))}}},provides(c){c.generateLayersText=function(l,s){let{title:a,transform:e,extra:n}=s,o=null,f=null;if(d1){let z=parseInt(getComputedStyle(l).fontSize,10),r=l.getBoundingClientRect();o=r.width/z,f=r.height/z}return t.autoA11y&&!a&&(n.attributes["aria-hidden"]="true"),Promise.resolve([l,l1({content:l.innerHTML,width:o,height:f,transform:e,title:a,extra:n,watchable:!0})])}}},a0=new RegExp('"',"ug"),f1=[1105920,1112319],t1=i(i(i(i({},{FontAwesome:{normal:"fas",400:"fas"}}),k3),G3),E3),v2=Object.keys(t1).reduce((c,l)=>(c[l.toLowerCase()]=t1[l],c),{}),e0=Object.keys(v2).reduce((c,l)=>{let s=v2[l];return c[l]=s[900]||[...Object.entries(s)][0][1],c},{});t0={hooks(){return{mutationObserverCallbacks(c){return c.pseudoElementsCallback=z1,c}}},provides(c){c.pseudoElements2svg=function(l){let{node:s=p}=l;t.searchPseudoElements&&z1(s)}}},L1=!1,r0={mixout(){return{dom:{unwatch(){j1(),L1=!0}}}},hooks(){return{bootstrap(){n1(b2("mutationObserverCallbacks",{}))},noAuto(){G4()},watch(c){let{observeMutationsRoot:l}=c;L1?y2():n1(b2("mutationObserverCallbacks",{observeMutationsRoot:l}))}}}},m1=c=>{let l={size:16,x:0,y:0,flipX:!1,flipY:!1,rotate:0};return c.toLowerCase().split(" ").reduce((s,a)=>{let e=a.toLowerCase().split("-"),n=e[0],o=e.slice(1).join("-");if(n&&o==="h")return s.flipX=!0,s;if(n&&o==="v")return s.flipY=!0,s;if(o=parseFloat(o),isNaN(o))return s;switch(n){case"grow":s.size=s.size+o;break;case"shrink":s.size=s.size-o;break;case"left":s.x=s.x-o;break;case"right":s.x=s.x+o;break;case"up":s.y=s.y-o;break;case"down":s.y=s.y+o;break;case"rotate":s.rotate=s.rotate+o;break}return s},l)},z0={mixout(){return{parse:{transform:c=>m1(c)}}},hooks(){return{parseNodeAttributes(c,l){let s=l.getAttribute("data-fa-transform");return s&&(c.transform=m1(s)),c}}},provides(c){c.generateAbstractTransformGrouping=function(l){let{main:s,transform:a,containerWidth:e,iconWidth:n}=l,o={transform:"translate(".concat(e/2," 256)")},f="translate(".concat(a.x*32,", ").concat(a.y*32,") "),z="scale(".concat(a.size/16*(a.flipX?-1:1),", ").concat(a.size/16*(a.flipY?-1:1),") "),r="rotate(".concat(a.rotate," 0 0)"),L={transform:"".concat(f," ").concat(z," ").concat(r)},M={transform:"translate(".concat(n/2*-1," -256)")},m={outer:o,inner:L,path:M};return{tag:"g",attributes:i({},m.outer),children:[{tag:"g",attributes:i({},m.inner),children:[{tag:s.icon.tag,children:s.icon.children,attributes:i(i({},s.icon.attributes),m.path)}]}]}}}},L2={x:0,y:0,width:"100%",height:"100%"};m0={hooks(){return{parseNodeAttributes(c,l){let s=l.getAttribute("data-fa-mask"),a=s?n2(s.split(" ").map(e=>e.trim())):q1();return a.prefix||(a.prefix=T()),c.mask=a,c.maskId=l.getAttribute("data-fa-mask-id"),c}}},provides(c){c.generateAbstractMask=function(l){let{children:s,attributes:a,main:e,mask:n,maskId:o,transform:f}=l,{width:z,icon:r}=e,{width:L,icon:M}=n,m=n4({transform:f,containerWidth:L,iconWidth:z}),u={tag:"rect",attributes:i(i({},L2),{},{fill:"white"})},y=r.children?{children:r.children.map(M1)}:{},B={tag:"g",attributes:i({},m.inner),children:[M1(i({tag:r.tag,attributes:i(i({},r.attributes),m.path)},y))]},h={tag:"g",attributes:i({},m.outer),children:[B]},S="mask-".concat(o||j()),d="clip-".concat(o||j()),g={tag:"mask",attributes:i(i({},L2),{},{id:S,maskUnits:"userSpaceOnUse",maskContentUnits:"userSpaceOnUse"}),children:[u,h]},H={tag:"defs",children:[{tag:"clipPath",attributes:{id:d},children:L0(M)},g]};return s.push(H,{tag:"rect",attributes:i({fill:"currentColor","clip-path":"url(#".concat(d,")"),mask:"url(#".concat(S,")")},L2)}),{children:s,attributes:a}}}},M0={provides(c){let l=!1;P.matchMedia&&(l=P.matchMedia("(prefers-reduced-motion: reduce)").matches),c.missingIconAbstract=function(){let s=[],a={fill:"currentColor"},e={attributeType:"XML",repeatCount:"indefinite",dur:"2s"};s.push({tag:"path",attributes:i(i({},a),{},{d:"M156.5,447.7l-12.6,29.5c-18.7-9.5-35.9-21.2-51.5-34.9l22.7-22.7C127.6,430.5,141.5,440,156.5,447.7z M40.6,272H8.5 c1.4,21.2,5.4,41.7,11.7,61.1L50,321.2C45.1,305.5,41.8,289,40.6,272z M40.6,240c1.4-18.8,5.2-37,11.1-54.1l-29.5-12.6 C14.7,194.3,10,216.7,8.5,240H40.6z M64.3,156.5c7.8-14.9,17.2-28.8,28.1-41.5L69.7,92.3c-13.7,15.6-25.5,32.8-34.9,51.5 L64.3,156.5z M397,419.6c-13.9,12-29.4,22.3-46.1,30.4l11.9,29.8c20.7-9.9,39.8-22.6,56.9-37.6L397,419.6z M115,92.4 c13.9-12,29.4-22.3,46.1-30.4l-11.9-29.8c-20.7,9.9-39.8,22.6-56.8,37.6L115,92.4z M447.7,355.5c-7.8,14.9-17.2,28.8-28.1,41.5 l22.7,22.7c13.7-15.6,25.5-32.9,34.9-51.5L447.7,355.5z M471.4,272c-1.4,18.8-5.2,37-11.1,54.1l29.5,12.6 c7.5-21.1,12.2-43.5,13.6-66.8H471.4z M321.2,462c-15.7,5-32.2,8.2-49.2,9.4v32.1c21.2-1.4,41.7-5.4,61.1-11.7L321.2,462z M240,471.4c-18.8-1.4-37-5.2-54.1-11.1l-12.6,29.5c21.1,7.5,43.5,12.2,66.8,13.6V471.4z M462,190.8c5,15.7,8.2,32.2,9.4,49.2h32.1 c-1.4-21.2-5.4-41.7-11.7-61.1L462,190.8z M92.4,397c-12-13.9-22.3-29.4-30.4-46.1l-29.8,11.9c9.9,20.7,22.6,39.8,37.6,56.9 L92.4,397z M272,40.6c18.8,1.4,36.9,5.2,54.1,11.1l12.6-29.5C317.7,14.7,295.3,10,272,8.5V40.6z M190.8,50 c15.7-5,32.2-8.2,49.2-9.4V8.5c-21.2,1.4-41.7,5.4-61.1,11.7L190.8,50z M442.3,92.3L419.6,115c12,13.9,22.3,29.4,30.5,46.1 l29.8-11.9C470,128.5,457.3,109.4,442.3,92.3z M397,92.4l22.7-22.7c-15.6-13.7-32.8-25.5-51.5-34.9l-12.6,29.5 C370.4,72.1,384.4,81.5,397,92.4z"})});let n=i(i({},e),{},{attributeName:"opacity"}),o={tag:"circle",attributes:i(i({},a),{},{cx:"256",cy:"364",r:"28"}),children:[]};return l||o.children.push({tag:"animate",attributes:i(i({},e),{},{attributeName:"r",values:"28;14;28;28;14;28;"})},{tag:"animate",attributes:i(i({},n),{},{values:"1;0;1;1;0;1;"})}),s.push(o),s.push({tag:"path",attributes:i(i({},a),{},{opacity:"1",d:"M263.7,312h-16c-6.6,0-12-5.4-12-12c0-71,77.4-63.9,77.4-107.8c0-20-17.8-40.2-57.4-40.2c-29.1,0-44.3,9.6-59.2,28.7 c-3.9,5-11.1,6-16.2,2.4l-13.1-9.2c-5.6-3.9-6.9-11.8-2.6-17.2c21.2-27.2,46.4-44.7,91.2-44.7c52.3,0,97.4,29.8,97.4,80.2 c0,67.6-77.4,63.5-77.4,107.8C275.7,306.6,270.3,312,263.7,312z"}),children:l?[]:[{tag:"animate",attributes:i(i({},n),{},{values:"1;0;0;0;0;1;"})}]}),l||s.push({tag:"path",attributes:i(i({},a),{},{opacity:"0",d:"M232.5,134.5l7,168c0.3,6.4,5.6,11.5,12,11.5h9c6.4,0,11.7-5.1,12-11.5l7-168c0.3-6.8-5.2-12.5-12-12.5h-23 C237.7,122,232.2,127.7,232.5,134.5z"}),children:[{tag:"animate",attributes:i(i({},n),{},{values:"0;0;1;1;0;0;"})}]}),{tag:"g",attributes:{class:"missing"},children:s}}}},p0={hooks(){return{parseNodeAttributes(c,l){let s=l.getAttribute("data-fa-symbol"),a=s===null?!1:s===""?!0:s;return c.symbol=a,c}}}},C0=[f4,Z4,c0,l0,s0,t0,r0,z0,m0,M0,p0];k4(C0,{mixoutsTo:x});N0=x.noAuto,b0=x.config,X1=x.library,K1=x.dom,S0=x.parse,w0=x.findIconDefinition,k0=x.toHtml,A0=x.icon,y0=x.layer,v0=x.text,P0=x.counter});var $1,J1,Z1,c3,l3,s3,a3,e3,n3,o3,i3,f3,t3,r3,z3,L3,m3=q2(()=>{/*!
 * Font Awesome Free 6.7.2 by @fontawesome - https://fontawesome.com
 * License - https://fontawesome.com/license/free (Icons: CC BY 4.0, Fonts: SIL OFL 1.1, Code: MIT License)
 * Copyright 2024 Fonticons, Inc.
 */$1={prefix:"fas",iconName:"bars",icon:[448,512,["navicon"],"f0c9","M0 96C0 78.3 14.3 64 32 64l384 0c17.7 0 32 14.3 32 32s-14.3 32-32 32L32 128C14.3 128 0 113.7 0 96zM0 256c0-17.7 14.3-32 32-32l384 0c17.7 0 32 14.3 32 32s-14.3 32-32 32L32 288c-17.7 0-32-14.3-32-32zM448 416c0 17.7-14.3 32-32 32L32 448c-17.7 0-32-14.3-32-32s14.3-32 32-32l384 0c17.7 0 32 14.3 32 32z"]},J1={prefix:"fas",iconName:"list",icon:[512,512,["list-squares"],"f03a","M40 48C26.7 48 16 58.7 16 72l0 48c0 13.3 10.7 24 24 24l48 0c13.3 0 24-10.7 24-24l0-48c0-13.3-10.7-24-24-24L40 48zM192 64c-17.7 0-32 14.3-32 32s14.3 32 32 32l288 0c17.7 0 32-14.3 32-32s-14.3-32-32-32L192 64zm0 160c-17.7 0-32 14.3-32 32s14.3 32 32 32l288 0c17.7 0 32-14.3 32-32s-14.3-32-32-32l-288 0zm0 160c-17.7 0-32 14.3-32 32s14.3 32 32 32l288 0c17.7 0 32-14.3 32-32s-14.3-32-32-32l-288 0zM16 232l0 48c0 13.3 10.7 24 24 24l48 0c13.3 0 24-10.7 24-24l0-48c0-13.3-10.7-24-24-24l-48 0c-13.3 0-24 10.7-24 24zM40 368c-13.3 0-24 10.7-24 24l0 48c0 13.3 10.7 24 24 24l48 0c13.3 0 24-10.7 24-24l0-48c0-13.3-10.7-24-24-24l-48 0z"]},Z1={prefix:"fas",iconName:"angle-right",icon:[320,512,[8250],"f105","M278.6 233.4c12.5 12.5 12.5 32.8 0 45.3l-160 160c-12.5 12.5-32.8 12.5-45.3 0s-12.5-32.8 0-45.3L210.7 256 73.4 118.6c-12.5-12.5-12.5-32.8 0-45.3s32.8-12.5 45.3 0l160 160z"]},c3={prefix:"fas",iconName:"code",icon:[640,512,[],"f121","M392.8 1.2c-17-4.9-34.7 5-39.6 22l-128 448c-4.9 17 5 34.7 22 39.6s34.7-5 39.6-22l128-448c4.9-17-5-34.7-22-39.6zm80.6 120.1c-12.5 12.5-12.5 32.8 0 45.3L562.7 256l-89.4 89.4c-12.5 12.5-12.5 32.8 0 45.3s32.8 12.5 45.3 0l112-112c12.5-12.5 12.5-32.8 0-45.3l-112-112c-12.5-12.5-32.8-12.5-45.3 0zm-306.7 0c-12.5-12.5-32.8-12.5-45.3 0l-112 112c-12.5 12.5-12.5 32.8 0 45.3l112 112c12.5 12.5 32.8 12.5 45.3 0s12.5-32.8 0-45.3L77.3 256l89.4-89.4c12.5-12.5 12.5-32.8 0-45.3z"]},l3={prefix:"fas",iconName:"file-pdf",icon:[512,512,[],"f1c1","M0 64C0 28.7 28.7 0 64 0L224 0l0 128c0 17.7 14.3 32 32 32l128 0 0 144-208 0c-35.3 0-64 28.7-64 64l0 144-48 0c-35.3 0-64-28.7-64-64L0 64zm384 64l-128 0L256 0 384 128zM176 352l32 0c30.9 0 56 25.1 56 56s-25.1 56-56 56l-16 0 0 32c0 8.8-7.2 16-16 16s-16-7.2-16-16l0-48 0-80c0-8.8 7.2-16 16-16zm32 80c13.3 0 24-10.7 24-24s-10.7-24-24-24l-16 0 0 48 16 0zm96-80l32 0c26.5 0 48 21.5 48 48l0 64c0 26.5-21.5 48-48 48l-32 0c-8.8 0-16-7.2-16-16l0-128c0-8.8 7.2-16 16-16zm32 128c8.8 0 16-7.2 16-16l0-64c0-8.8-7.2-16-16-16l-16 0 0 96 16 0zm80-112c0-8.8 7.2-16 16-16l48 0c8.8 0 16 7.2 16 16s-7.2 16-16 16l-32 0 0 32 32 0c8.8 0 16 7.2 16 16s-7.2 16-16 16l-32 0 0 48c0 8.8-7.2 16-16 16s-16-7.2-16-16l0-64 0-64z"]},s3={prefix:"fas",iconName:"download",icon:[512,512,[],"f019","M288 32c0-17.7-14.3-32-32-32s-32 14.3-32 32l0 242.7-73.4-73.4c-12.5-12.5-32.8-12.5-45.3 0s-12.5 32.8 0 45.3l128 128c12.5 12.5 32.8 12.5 45.3 0l128-128c12.5-12.5 12.5-32.8 0-45.3s-32.8-12.5-45.3 0L288 274.7 288 32zM64 352c-35.3 0-64 28.7-64 64l0 32c0 35.3 28.7 64 64 64l384 0c35.3 0 64-28.7 64-64l0-32c0-35.3-28.7-64-64-64l-101.5 0-45.3 45.3c-25 25-65.5 25-90.5 0L165.5 352 64 352zm368 56a24 24 0 1 1 0 48 24 24 0 1 1 0-48z"]},a3={prefix:"fas",iconName:"outdent",icon:[448,512,["dedent"],"f03b","M0 64C0 46.3 14.3 32 32 32l384 0c17.7 0 32 14.3 32 32s-14.3 32-32 32L32 96C14.3 96 0 81.7 0 64zM192 192c0-17.7 14.3-32 32-32l192 0c17.7 0 32 14.3 32 32s-14.3 32-32 32l-192 0c-17.7 0-32-14.3-32-32zm32 96l192 0c17.7 0 32 14.3 32 32s-14.3 32-32 32l-192 0c-17.7 0-32-14.3-32-32s14.3-32 32-32zM0 448c0-17.7 14.3-32 32-32l384 0c17.7 0 32 14.3 32 32s-14.3 32-32 32L32 480c-17.7 0-32-14.3-32-32zM.2 268.6c-8.2-6.4-8.2-18.9 0-25.3l101.9-79.3c10.5-8.2 25.8-.7 25.8 12.6l0 158.6c0 13.3-15.3 20.8-25.8 12.6L.2 268.6z"]},e3={prefix:"fas",iconName:"sun",icon:[512,512,[9728],"f185","M361.5 1.2c5 2.1 8.6 6.6 9.6 11.9L391 121l107.9 19.8c5.3 1 9.8 4.6 11.9 9.6s1.5 10.7-1.6 15.2L446.9 256l62.3 90.3c3.1 4.5 3.7 10.2 1.6 15.2s-6.6 8.6-11.9 9.6L391 391 371.1 498.9c-1 5.3-4.6 9.8-9.6 11.9s-10.7 1.5-15.2-1.6L256 446.9l-90.3 62.3c-4.5 3.1-10.2 3.7-15.2 1.6s-8.6-6.6-9.6-11.9L121 391 13.1 371.1c-5.3-1-9.8-4.6-11.9-9.6s-1.5-10.7 1.6-15.2L65.1 256 2.8 165.7c-3.1-4.5-3.7-10.2-1.6-15.2s6.6-8.6 11.9-9.6L121 121 140.9 13.1c1-5.3 4.6-9.8 9.6-11.9s10.7-1.5 15.2 1.6L256 65.1 346.3 2.8c4.5-3.1 10.2-3.7 15.2-1.6zM160 256a96 96 0 1 1 192 0 96 96 0 1 1 -192 0zm224 0a128 128 0 1 0 -256 0 128 128 0 1 0 256 0z"]},n3={prefix:"fas",iconName:"file",icon:[384,512,[128196,128459,61462],"f15b","M0 64C0 28.7 28.7 0 64 0L224 0l0 128c0 17.7 14.3 32 32 32l128 0 0 288c0 35.3-28.7 64-64 64L64 512c-35.3 0-64-28.7-64-64L0 64zm384 64l-128 0L256 0 384 128z"]},o3={prefix:"fas",iconName:"magnifying-glass",icon:[512,512,[128269,"search"],"f002","M416 208c0 45.9-14.9 88.3-40 122.7L502.6 457.4c12.5 12.5 12.5 32.8 0 45.3s-32.8 12.5-45.3 0L330.7 376c-34.4 25.2-76.8 40-122.7 40C93.1 416 0 322.9 0 208S93.1 0 208 0S416 93.1 416 208zM208 352a144 144 0 1 0 0-288 144 144 0 1 0 0 288z"]},i3={prefix:"fas",iconName:"arrow-up",icon:[384,512,[8593],"f062","M214.6 41.4c-12.5-12.5-32.8-12.5-45.3 0l-160 160c-12.5 12.5-12.5 32.8 0 45.3s32.8 12.5 45.3 0L160 141.2 160 448c0 17.7 14.3 32 32 32s32-14.3 32-32l0-306.7L329.4 246.6c12.5 12.5 32.8 12.5 45.3 0s12.5-32.8 0-45.3l-160-160z"]},f3={prefix:"fas",iconName:"circle-half-stroke",icon:[512,512,[9680,"adjust"],"f042","M448 256c0-106-86-192-192-192l0 384c106 0 192-86 192-192zM0 256a256 256 0 1 1 512 0A256 256 0 1 1 0 256z"]},t3={prefix:"fas",iconName:"expand",icon:[448,512,[],"f065","M32 32C14.3 32 0 46.3 0 64l0 96c0 17.7 14.3 32 32 32s32-14.3 32-32l0-64 64 0c17.7 0 32-14.3 32-32s-14.3-32-32-32L32 32zM64 352c0-17.7-14.3-32-32-32s-32 14.3-32 32l0 96c0 17.7 14.3 32 32 32l96 0c17.7 0 32-14.3 32-32s-14.3-32-32-32l-64 0 0-64zM320 32c-17.7 0-32 14.3-32 32s14.3 32 32 32l64 0 0 64c0 17.7 14.3 32 32 32s32-14.3 32-32l0-96c0-17.7-14.3-32-32-32l-96 0zM448 352c0-17.7-14.3-32-32-32s-32 14.3-32 32l0 64-64 0c-17.7 0-32 14.3-32 32s14.3 32 32 32l96 0c17.7 0 32-14.3 32-32l0-96z"]},r3={prefix:"fas",iconName:"rocket",icon:[512,512,[],"f135","M156.6 384.9L125.7 354c-8.5-8.5-11.5-20.8-7.7-32.2c3-8.9 7-20.5 11.8-33.8L24 288c-8.6 0-16.6-4.6-20.9-12.1s-4.2-16.7 .2-24.1l52.5-88.5c13-21.9 36.5-35.3 61.9-35.3l82.3 0c2.4-4 4.8-7.7 7.2-11.3C289.1-4.1 411.1-8.1 483.9 5.3c11.6 2.1 20.6 11.2 22.8 22.8c13.4 72.9 9.3 194.8-111.4 276.7c-3.5 2.4-7.3 4.8-11.3 7.2l0 82.3c0 25.4-13.4 49-35.3 61.9l-88.5 52.5c-7.4 4.4-16.6 4.5-24.1 .2s-12.1-12.2-12.1-20.9l0-107.2c-14.1 4.9-26.4 8.9-35.7 11.9c-11.2 3.6-23.4 .5-31.8-7.8zM384 168a40 40 0 1 0 0-80 40 40 0 1 0 0 80z"]},z3={prefix:"fas",iconName:"moon",icon:[384,512,[127769,9214],"f186","M223.5 32C100 32 0 132.3 0 256S100 480 223.5 480c60.6 0 115.5-24.2 155.8-63.4c5-4.9 6.3-12.5 3.1-18.7s-10.1-9.7-17-8.5c-9.8 1.7-19.8 2.6-30.1 2.6c-96.9 0-175.5-78.8-175.5-176c0-65.8 36-123.1 89.3-153.3c6.1-3.5 9.2-10.5 7.7-17.3s-7.3-11.9-14.3-12.5c-6.3-.5-12.6-.8-19-.8z"]},L3={prefix:"fas",iconName:"angle-left",icon:[320,512,[8249],"f104","M41.4 233.4c-12.5 12.5-12.5 32.8 0 45.3l160 160c12.5 12.5 32.8 12.5 45.3 0s12.5-32.8 0-45.3L109.3 256 246.6 118.6c12.5-12.5 12.5-32.8 0-45.3s-32.8-12.5-45.3 0l-160 160z"]}});var u0=C3(()=>{Q1();m3();X1.add(o3,$1,J1,e3,z3,t3,f3,i3,r3,a3,l3,n3,s3,Z1,L3,c3);K1.watch()});u0();})();
