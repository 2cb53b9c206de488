#include <libxml/xmlversion.h>
/* Debian builds libxml2 with ICU; its ICU headers clash with the ICU Foundation bundles.
   healthetl never touches libxml2's ICU converters, so leave their declarations out. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/SAX2.h>
