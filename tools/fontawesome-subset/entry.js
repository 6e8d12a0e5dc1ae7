// Font Awesome subset for the book: only the icons its pages use (see tests/test_browser.py).
import { library, dom } from "@fortawesome/fontawesome-svg-core";
import {
  faMagnifyingGlass, faBars, faList, faSun, faMoon, faExpand, faCircleHalfStroke,
  faArrowUp, faRocket, faOutdent, faFilePdf, faFile, faDownload, faAngleRight,
  faAngleLeft, faCode,
} from "@fortawesome/free-solid-svg-icons";

library.add(
  faMagnifyingGlass, faBars, faList, faSun, faMoon, faExpand, faCircleHalfStroke,
  faArrowUp, faRocket, faOutdent, faFilePdf, faFile, faDownload, faAngleRight,
  faAngleLeft, faCode,
);
dom.watch();
