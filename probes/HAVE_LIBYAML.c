/* LIBS: -lyaml
 * libyaml's document API: the front end's YAML report
 * (front-end/yaml/yamldoc.c). Required: Debian package libyaml-dev.
 */
#include <yaml.h>

int main(void)
{
	yaml_document_t d;

	yaml_document_initialize(&d, NULL, NULL, NULL, 1, 1);
	yaml_document_delete(&d);
	return 0;
}
